/** Archive entries: the input shape, name sanitising and chunked reading with cleanup. */
import { log } from "../log.ts";

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

/** Permission bits of an entry, with a sensible default when the mode is unknown. */
export function permissionBits(entry: ArchiveEntry): number {
  const perm = entry.mode & 0o7777;
  if (perm !== 0) return perm;
  return entry.isDir ? 0o755 : 0o644;
}

/** Opens an entry's content; logs and returns null when it cannot be opened (the entry is skipped). */
export async function openEntry(entry: ArchiveEntry): Promise<ReadableStream<Uint8Array> | null> {
  if (!entry.open) return new ReadableStream({ start: (c) => c.close() });
  try {
    return await entry.open();
  } catch (err) {
    log.warn(`archive: skipping "${entry.name}": cannot open`, err);
    return null;
  }
}

/**
 * Yields the chunks of a stream. When the consumer stops early (return/throw, e.g. the archive
 * was cancelled), the stream is cancelled, which closes the underlying file.
 */
export async function* readChunks(
  stream: ReadableStream<Uint8Array>,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let finished = false;
  try {
    while (true) {
      options.signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      if (value.length > 0) yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch((err) => log.debug("archive: cancel failed", err));
    reader.releaseLock();
  }
}
