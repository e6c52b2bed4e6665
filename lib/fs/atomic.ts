/**
 * Atomic file writes: the data goes to a hidden temp file in the target's folder and is renamed over the
 * target only once it is complete and synced, so a failed or interrupted write leaves the old file intact.
 */
import type { ScopedPath } from "./gate.ts";

/** Mode of new files (settings `fileMode` default). */
export const FILE_MODE = 0o640;
/** Mode of new directories (settings `dirMode` default). */
export const DIR_MODE = 0o750;
/** Prefix of temp files; walkers may skip names with it. */
export const TEMP_PREFIX = ".fb-tmp-";

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

/** A hidden, random temp path next to `target` (same folder, so rename(2) stays on one file system). */
export function tempPathFor(target: string, kind: "upload" | "copy" | "move" = "upload"): string {
  const rand = crypto.getRandomValues(new Uint8Array(8)).reduce(
    (s, b) => s + b.toString(16).padStart(2, "0"),
    "",
  );
  return `${dirOf(target)}/${TEMP_PREFIX}${kind}-${rand}.tmp`;
}

/** Body accepted by {@link writeFileAtomic}. */
export type WriteBody = ReadableStream<Uint8Array> | Uint8Array | null;

/** Options of {@link writeFileAtomic}. */
export interface WriteOptions {
  /** Mode of the new file (an existing file's mode is kept instead). */
  mode?: number;
  /** Create missing parent folders (upload) or not (save). */
  createParents?: boolean;
  signal?: AbortSignal;
}

async function pump(file: Deno.FsFile, body: WriteBody, signal?: AbortSignal): Promise<void> {
  if (body === null) return;
  if (body instanceof Uint8Array) {
    let off = 0;
    while (off < body.length) off += await file.write(body.subarray(off));
    return;
  }
  const reader = body.getReader();
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) break;
      let off = 0;
      while (off < value.length) off += await file.write(value.subarray(off));
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Writes `body` to `target.real` atomically: temp file in the same folder → fsync → rename. On any failure
 * (including a client that disconnects mid-body) the temp file is removed and the old file stays as it was.
 * Returns the stat of the written file.
 */
export async function writeFileAtomic(
  target: ScopedPath,
  body: WriteBody,
  options: WriteOptions = {},
): Promise<Deno.FileInfo> {
  const dest = target.real;
  if (options.createParents) await Deno.mkdir(dirOf(dest), { recursive: true, mode: DIR_MODE });
  const existingMode = target.stat?.isFile ? (target.stat.mode ?? 0) & 0o7777 : null;
  const temp = tempPathFor(dest);
  const file = await Deno.open(temp, {
    write: true,
    createNew: true,
    mode: existingMode ?? options.mode ?? FILE_MODE,
  });
  let closed = false;
  try {
    await pump(file, body, options.signal);
    if (existingMode !== null) await Deno.chmod(temp, existingMode);
    await file.syncData();
    file.close();
    closed = true;
    await Deno.rename(temp, dest);
  } catch (err) {
    if (!closed) file.close();
    // Undo the partial write only: the temp file is ours, the target was never touched.
    await Deno.remove(temp).catch(() => {});
    throw err;
  }
  return await Deno.stat(dest);
}

/** The upload ETag (as filebrowser's): `"<hex mtime in ns><hex size>"`. */
export function uploadEtag(info: Deno.FileInfo): string {
  const ns = BigInt(info.mtime?.getTime() ?? 0) * 1_000_000n;
  return `"${ns.toString(16)}${info.size.toString(16)}"`;
}
