/** Archive entries: the input shape, name sanitising and chunked reading with cleanup. */
import { log } from "../log.ts";
import { CHUNK_TARGET, type ChunkBuffer } from "./stream.ts";

/** One file or directory to put in an archive. */
export interface ArchiveEntry {
  /** Relative `/`-separated path inside the archive (no trailing `/` needed for directories). */
  name: string;
  isDir: boolean;
  /** Size in bytes as stat'ed; tar writes exactly this many bytes, zip uses it to pick zip64. */
  size: number;
  mtime: Date;
  /** Unix mode; only the permission bits (0o7777) are used. */
  mode: number;
  /** Opens the content; absent for directories. The archiver cancels the stream when done or aborted. */
  open?: () => Promise<ReadableStream<Uint8Array>>;
  /**
   * Optional, for small files: the whole content read now in one synchronous call, at most `size` bytes; null
   * when it cannot be read so (gone, no longer a small regular file, ...), and then open() is called, which
   * fails or streams as it would have. A throw fails the entry like a failing open(). `buffer` (at least `size`
   * bytes) is lent by the archiver to read into, so that no buffer is allocated per file: return a view of it
   * (or bytes of your own). It is reused once the entry is written; the writers copy from it, never keep it.
   */
  readWhole?: (buffer: Uint8Array) => Uint8Array | null;
}

/**
 * Makes an entry name safe to store: backslashes become `_`, empty and `.` segments are dropped.
 * Returns null (refuse the entry) for empty names, absolute names, `..` segments and NUL bytes.
 */
export function sanitizeEntryName(name: string): string | null {
  // On POSIX a backslash is an ordinary character, but Windows extractors treat it as a separator,
  // which would turn `..\..\evil.sh` into a path traversal there.
  const replaced = name.replaceAll("\\", "_");
  if (replaced.startsWith("/") || replaced.includes("\0")) return null;
  const segments: string[] = [];
  for (const segment of replaced.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") return null;
    segments.push(segment);
  }
  return segments.length === 0 ? null : segments.join("/");
}

/**
 * The error that ends an archive when an entry listed in it cannot be delivered whole (it vanished, became
 * unreadable, failed to read or shrank): the stream errors and the download fails instead of ending short.
 */
export function entryFailure(name: string, cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new Error(`Cannot archive "${name}": ${reason}`, { cause });
}

/** Permission bits of an entry, with a sensible default when the mode is unknown. */
export function permissionBits(entry: ArchiveEntry): number {
  const perm = entry.mode & 0o7777;
  if (perm !== 0) return perm;
  return entry.isDir ? 0o755 : 0o644;
}

/** Options of copyEntry. */
export interface CopyEntryOptions {
  signal?: AbortSignal;
  /** Stop after this many bytes (tar writes exactly the stat'ed size). */
  limit?: number;
  /** Sees every piece of data as it is added to the output (CRC, counting). */
  onData?: (bytes: Uint8Array) => void;
}

function getByobReader(stream: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return stream.getReader({ mode: "byob" });
  } catch {
    // Not a byte stream: read chunks and copy them instead.
    return null;
  }
}

/**
 * Copies an entry's content into the output, yielding batches of complete output chunks.
 * Byte streams (like fileReadable) are read straight into the output block, so no
 * intermediate buffers are allocated. Returns the number of bytes copied. When the consumer
 * stops early (the archive was cancelled), the stream is cancelled, closing the file.
 */
export async function* copyEntry(
  stream: ReadableStream<Uint8Array>,
  out: ChunkBuffer,
  options: CopyEntryOptions = {},
): AsyncGenerator<Uint8Array<ArrayBuffer>[], number> {
  const { signal, onData } = options;
  const limit = options.limit ?? Infinity;
  const byob = getByobReader(stream);
  const reader = byob ?? stream.getReader();
  let total = 0;
  let finished = false;
  try {
    while (total < limit) {
      signal?.throwIfAborted();
      if (byob) {
        const { done, value } = await byob.read(out.reserve(Math.min(limit - total, CHUNK_TARGET)));
        if (value) out.commit(value as Uint8Array<ArrayBuffer>);
        if (done) break;
        onData?.(value);
        total += value.length;
      } else {
        const { done, value } = await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
        if (done) break;
        const part = total + value.length > limit ? value.subarray(0, limit - total) : value;
        onData?.(part);
        out.push(part);
        total += part.length;
      }
      if (out.hasReady) yield out.take();
    }
    finished = total < limit;
    return total;
  } finally {
    if (!finished) await reader.cancel().catch((err) => log.debug("archive: cancel failed", err));
    reader.releaseLock();
  }
}

/**
 * Runs a {@link copyEntry} and names the entry in any read error (entryFailure); an abort passes unchanged.
 */
export async function* copyContent<T>(
  name: string,
  copy: AsyncGenerator<Uint8Array<ArrayBuffer>[], T>,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array<ArrayBuffer>[], T> {
  try {
    return yield* copy;
  } catch (err) {
    if (signal?.aborted) throw err;
    throw entryFailure(name, err);
  }
}
