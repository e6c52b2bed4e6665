/**
 * Placing files atomically: the bytes go to a hidden temp file in the target's folder, which is synced and
 * renamed over the target only once it is complete, so a failed or interrupted write leaves the old file
 * intact. {@link placeAtomically} is the one primitive; saving, copying, extracting, upload completion
 * (lib/upload/placement.ts) and the preview cache use it.
 */
import { ConflictError } from "../errors.ts";
import type { ScopedPath } from "./gate.ts";
import { vpathBase, vpathDir } from "./path.ts";
import {
  chmodNoFollow,
  copyFile,
  ensureDirBeneath,
  type Pin,
  pinEntry,
  pinTarget,
  serverPath,
  stat,
  statSync,
} from "./floor.ts";

/** Mode of new files (settings `fileMode` default, upstream's). */
export const FILE_MODE = 0o640;
/** Mode of new directories (settings `dirMode` default, upstream's). */
export const DIR_MODE = 0o750;
/** Prefix of temp files; walkers may skip names with it. */
export const TEMP_PREFIX = ".fb-tmp-";

/** What a temp file is for (part of its name, for whoever finds one after a crash). */
export type TempKind = "upload" | "copy" | "move" | "preview";

/** A hidden, random temp path next to `target` (same folder, so rename(2) stays on one file system). */
export function tempPathFor(target: string, kind: TempKind = "upload"): string {
  const rand = crypto.getRandomValues(new Uint8Array(8)).reduce(
    (s, b) => s + b.toString(16).padStart(2, "0"),
    "",
  );
  return `${vpathDir(target)}/${TEMP_PREFIX}${kind}-${rand}.tmp`;
}

function errorCode(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

function targetExists(target: string): ConflictError {
  return new ConflictError("target_exists", `Cannot place "${vpathBase(target)}": target exists`);
}

/**
 * Moves the complete file `from` onto `target` on the same file system: rename(2) when it may replace,
 * else link(2) + unlink, which never replaces (a file that appeared since the checks stays; 409).
 */
export async function renameOnto(from: string, target: string, options: { replace: boolean }): Promise<void> {
  if (options.replace) {
    await Deno.rename(from, target);
    return;
  }
  try {
    await Deno.link(from, target);
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) throw targetExists(target);
    const code = errorCode(err);
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw err;
    // File systems without hard links: check, then rename (a narrow race, but never a silent loss of a
    // file that existed at the check).
    if (await Deno.lstat(target).then(() => true, () => false)) throw targetExists(target);
    await Deno.rename(from, target);
    return;
  }
  await Deno.remove(from);
}

/** Flushes a file's data to disk. */
export async function syncFile(path: string): Promise<void> {
  using file = await Deno.open(path, { read: true });
  await file.syncData();
}

/** Makes a rename in `dir` durable; file systems that refuse fsync on a directory are fine. */
export async function syncDir(dir: string): Promise<void> {
  let handle: Deno.FsFile;
  try {
    handle = await Deno.open(dir, { read: true });
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch {
    // EINVAL on some file systems: nothing more can be done, the rename itself happened.
  } finally {
    handle.close();
  }
}

/** Options of {@link placeAtomically}. */
export interface PlaceOptions {
  kind?: TempKind;
  /** Create missing parent folders first. */
  createParents?: boolean;
  /** Keep a file that is already at the target (409) instead of replacing it. */
  keepExisting?: boolean;
  /** Sync the temp file before the rename (default true; off for symlinks, which cannot be synced). */
  sync?: boolean;
  /**
   * The files root `dest` lies beneath (a checked path's `confinement.anchor`): the disk floor then pins
   * `dest`'s folder (and creates missing parents) without following any symlink, and the temp file, the sync and
   * the rename all happen in that pinned folder. Absent for the server's own paths (caches).
   */
  anchor?: string;
}

/**
 * The one way a file lands: `fill` writes a hidden temp file next to `dest`, which is synced and renamed
 * onto `dest`; returns what `fill` returned. On any failure the temp file is removed and `dest` stays as it was.
 */
export async function placeAtomically<T>(
  dest: string,
  fill: (temp: string) => Promise<T>,
  options: PlaceOptions = {},
): Promise<T> {
  const anchor = options.anchor ?? "";
  if (options.createParents) {
    if (anchor) ensureDirBeneath(anchor, vpathDir(dest), DIR_MODE);
    else await Deno.mkdir(vpathDir(dest), { recursive: true, mode: DIR_MODE });
  }
  // `at` names dest in its pinned folder (/proc/self/fd/N/name): the temp file lands next to it in that folder.
  using folder = anchor ? pinEntry(anchor, dest) : serverPath(dest);
  const at = folder.path;
  const temp = tempPathFor(at, options.kind);
  try {
    const result = await fill(temp);
    if (options.sync ?? true) await syncFile(temp);
    await renameOnto(temp, at, { replace: !options.keepExisting });
    return result;
  } catch (err) {
    // Undo the partial write only: the temp file is ours, the target was never touched.
    await Deno.remove(temp).catch(() => {});
    throw err;
  }
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
 * Writes `body` to `target.real` atomically ({@link placeAtomically}); a client that disconnects mid-body
 * leaves the old file as it was. Returns the stat of the written file.
 */
export async function writeFileAtomic(
  target: ScopedPath,
  body: WriteBody,
  options: WriteOptions = {},
): Promise<Deno.FileInfo> {
  const existingMode = target.stat?.isFile ? (target.stat.mode ?? 0) & 0o7777 : null;
  const anchor = target.confinement.anchor;
  await placeAtomically(target.real, async (temp) => {
    using file = await Deno.open(temp, {
      write: true,
      createNew: true,
      mode: existingMode ?? options.mode ?? FILE_MODE,
    });
    await pump(file, body, options.signal);
    // The umask may have narrowed the mode given to open(2).
    if (existingMode !== null) await chmodNoFollow(temp, existingMode);
  }, { createParents: options.createParents, anchor });
  using written = pinTarget(target);
  return await stat(written);
}

/**
 * Copies the regular file `src` (a pinned file, or a server path such as an upload's staging file) to `dest`
 * atomically with the given mode (default: the source's); `anchor` as for {@link placeAtomically}.
 */
export async function copyFileAtomic(
  src: string | Pin,
  dest: string,
  options: { mode?: number; kind?: TempKind; keepExisting?: boolean; signal?: AbortSignal; anchor?: string } =
    {},
): Promise<void> {
  options.signal?.throwIfAborted();
  const from = typeof src === "string" ? serverPath(src) : src;
  await placeAtomically(dest, async (temp) => {
    // A pinned object cannot change its type: checked once, it is never a FIFO that would block the copy.
    const info = statSync(from);
    if (!info.isFile) throw new Error("not a regular file");
    await copyFile(from, serverPath(temp));
    const mode = options.mode ?? info.mode;
    if (mode !== null) await chmodNoFollow(temp, mode & 0o7777);
  }, {
    kind: options.kind ?? "copy",
    createParents: true,
    keepExisting: options.keepExisting,
    anchor: options.anchor,
  });
}

/** The upload ETag (as filebrowser's): `"<hex mtime in ns><hex size>"`. */
export function uploadEtag(info: Deno.FileInfo): string {
  const ns = BigInt(info.mtime?.getTime() ?? 0) * 1_000_000n;
  return `"${ns.toString(16)}${info.size.toString(16)}"`;
}
