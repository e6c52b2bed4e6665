/**
 * The entries of a folder/selection download (docs/api.md#downloads), walked through the gate: denied and
 * hidden entries are skipped (a denied folder prunes its subtree), escaping symlinks are skipped, in-scope
 * symlinks are archived as their targets (folder loops are cut). A listed entry that is gone or cannot be read
 * (deleted meanwhile, a path beyond PATH_MAX) throws: the archive fails rather than end short.
 * Where libc is available (lib/fs/dir_stat.ts) a folder is listed and its entries lstat'ed relative to one
 * directory descriptor, and small files are read whole in one synchronous call (ArchiveEntry.readWhole):
 * a few microseconds per file instead of a thread-pool round trip for each lstat, open and read. Whenever
 * that path cannot answer, the portable calls run and fail exactly as they always did.
 */
import type { ArchiveEntry } from "../archive/mod.ts";
import { entryFailure } from "../archive/entry.ts";
import { fileReadable } from "../archive/file_stream.ts";
import { log } from "../log.ts";
import { closeFd, lstat, openFile, openForRead, pinEntryIn, pinTarget, readDirNames, stat } from "./floor.ts";
import {
  type DirStat,
  type EntryStat,
  fileType,
  openDirStat,
  readWholeFileInto,
  S_IFDIR,
  S_IFLNK,
  S_IFREG,
} from "./dir_stat.ts";
import { type GateContext, resolveScoped, scopedChild, type ScopedPath } from "./gate.ts";
import { cleanVpath, commonDir, isSameOrInside, joinVpath, vpathBase, vpathDir } from "./path.ts";
import { compareBytes } from "./sort.ts";

/** What to put in an archive and how to name the download. */
export interface ArchivePlan {
  /** Download name without extension: the folder's own name, also for a selection of its entries. */
  name: string;
  entries: AsyncIterable<ArchiveEntry>;
}

/** Splits the `files` query of /api/raw (already decoded once) into vpaths, decoding each element again. */
export function parseFilesParam(files: string | undefined): string[] {
  if (!files) return [];
  return files.split(",").filter((s) => s !== "").map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
}

function relativeName(root: string, vpath: string): string {
  return root === "/" ? vpath.slice(1) : vpath.slice(root.length + 1);
}

/** Files up to this size are read whole by ArchiveEntry.readWhole (one libc call, no stream). */
export const WHOLE_READ_MAX = 64 * 1024;
/** Longer paths are lstat'ed by Deno.lstat, which fails on them as it always did (ENAMETOOLONG). */
const PATH_MAX = 4096;
const encoder = new TextEncoder();

/**
 * The bytes of a small regular file read into `buffer`, at most its listed `size` (a file that grew is cut
 * there, as by fileReadable). Null whenever the one-call read cannot answer (no libc, gone, a symlink or a FIFO
 * swapped in, grown past WHOLE_READ_MAX or the buffer, truncated during the read): the archiver then calls
 * open(), which refuses or streams it.
 */
function readSmall(p: ScopedPath, size: number, buffer: Uint8Array): Uint8Array | null {
  let fd: number | null;
  try {
    // One open through the disk floor (no symlink followed, O_NONBLOCK); null without it: by path, O_NOFOLLOW.
    fd = openForRead(p.confinement.anchor, p.real);
  } catch {
    // Gone or swapped for a link on the way: open() refuses or fails it with its reason.
    return null;
  }
  let whole;
  try {
    whole = readWholeFileInto(
      fd === null ? p.real : { fd },
      buffer.length > WHOLE_READ_MAX ? buffer.subarray(0, WHOLE_READ_MAX) : buffer,
    );
  } finally {
    if (fd !== null) closeFd(fd);
  }
  if (!whole || whole.read < 0) return null;
  return buffer.subarray(0, Math.min(whole.read, size));
}

function entryOf(p: ScopedPath, name: string): ArchiveEntry {
  const info = p.stat!;
  return {
    name,
    isDir: info.isDirectory,
    size: info.size,
    mtime: info.mtime ?? new Date(0),
    mode: (info.mode ?? 0) & 0o7777,
    // The stat'ed size is what tar promises; fileReadable stops there even if the file grows.
    open: info.isDirectory ? undefined : async () => {
      // `real` is the gate's resolved path: a symlink there now was swapped in after the gate looked, and is
      // refused rather than followed unchecked (as a single download refuses it).
      // The disk floor refuses any component that became a link (403) before anything is opened.
      using pin = pinTarget(p);
      const now = await stat(pin);
      // A FIFO (or device) swapped in would block a thread on open; a folder would fail mid-read.
      if (!now.isFile) throw new Error("it is no longer a regular file");
      return fileReadable(await openFile(pin), { size: info.size });
    },
    readWhole: info.isFile && info.size <= WHOLE_READ_MAX
      ? (buffer) => readSmall(p, info.size, buffer)
      : undefined,
  };
}

/** A Deno.FileInfo with what the gate and the walk read (type, size, mtime, mode) from a libc lstat. */
function fileInfoOf(st: EntryStat): Deno.FileInfo {
  const type = fileType(st.mode);
  const mtime = new Date(st.mtimeMs);
  return {
    isFile: type === S_IFREG,
    isDirectory: type === S_IFDIR,
    isSymlink: type === S_IFLNK,
    size: st.size,
    mtime,
    atime: null,
    birthtime: null,
    ctime: null,
    dev: 0,
    ino: null,
    mode: st.mode,
    nlink: null,
    uid: null,
    gid: null,
    rdev: null,
    blksize: null,
    blocks: null,
    isBlockDevice: null,
    isCharDevice: null,
    isFifo: null,
    isSocket: null,
  };
}

/** The lstat of `<dir>/<name>`: relative to the open folder when possible, else (and to fail) Deno.lstat. */
async function lstatChild(
  dir: DirStat,
  p: ScopedPath,
  path: string,
  name: string,
): Promise<Deno.FileInfo> {
  const fast = path.length * 3 < PATH_MAX || encoder.encode(path).length < PATH_MAX ? dir.lstat(name) : null;
  if (fast !== null) return fileInfoOf(fast);
  using entry = pinEntryIn(p, path);
  return await lstat(entry);
}

async function* walk(
  p: ScopedPath,
  root: string,
  seen: Set<string>,
  signal?: AbortSignal,
): AsyncGenerator<ArchiveEntry> {
  signal?.throwIfAborted();
  // Only folders and regular files: opening a FIFO would block the whole download.
  if (p.stat === null || !(p.stat.isDirectory || p.stat.isFile)) return;
  if (p.vpath !== root) yield entryOf(p, relativeName(root, p.vpath));
  if (!p.stat.isDirectory) return;
  // In-scope symlinked folders are followed; a folder already on the current path would loop forever.
  if (seen.has(p.real)) return;
  seen.add(p.real);
  // The folder's descriptor is closed before walking into a subfolder (and opened again after it), so a deep
  // tree holds one descriptor, not one per level.
  let dir: DirStat | null = null;
  try {
    const here = relativeName(root, p.vpath);
    try {
      dir = openDirStat({ real: p.real, anchor: p.confinement.anchor });
    } catch (err) {
      // Listed as a folder, now unreachable (too long a path, swapped for a link): the archive fails here.
      throw entryFailure(here || vpathBase(p.vpath) || "/", err);
    }
    let names: string[] = dir.list()?.names ?? [];
    if (names.length === 0) {
      // Not listed by libc (or empty): Deno.readDir, which also reports why a folder cannot be read.
      try {
        using pin = pinTarget(p);
        names = await readDirNames(pin);
      } catch (err) {
        // The folder is listed already: leaving its content out would end the archive silently short.
        throw entryFailure(here || vpathBase(p.vpath) || "/", err);
      }
    }
    names.sort(compareBytes);
    for (const name of names) {
      let child: ScopedPath | null;
      try {
        // Listed, so it must still be there (a deleted file is a failure, not a skip), and reachable (a path
        // beyond PATH_MAX fails with ENAMETOOLONG).
        dir ??= openDirStat({ real: p.real, anchor: p.confinement.anchor });
        const info = await lstatChild(dir, p, p.real === "/" ? `/${name}` : `${p.real}/${name}`, name);
        child = await scopedChild(p, name, { lstat: info });
      } catch (err) {
        throw entryFailure(here ? `${here}/${name}` : name, err);
      }
      // Denied, hidden, escaping, or a dangling link: not part of the archive.
      if (child === null || child.stat === null) continue;
      if (child.stat.isDirectory) {
        dir.close();
        dir = null;
      }
      yield* walk(child, root, seen, signal);
    }
  } finally {
    dir?.close();
    seen.delete(p.real);
  }
}

/**
 * Plans an archive of `dir` (the requested folder) or of `files` (vpaths relative to it). Each selected path
 * passes the gate with `download`; denied or missing ones are skipped. A single selected file is archived
 * under its own name (upstream produced an empty archive).
 */
export async function planArchive(
  ctx: GateContext,
  dir: ScopedPath,
  options: { files: string[]; signal?: AbortSignal },
): Promise<ArchivePlan> {
  const selected: ScopedPath[] = [];
  const requested = options.files.length ? options.files : [""];
  for (const f of requested) {
    // Resolved under the requested folder: `..` cannot climb out of it.
    const vpath = joinVpath(dir.vpath, cleanVpath(f).path.slice(1)).replace(/\/$/, "") || "/";
    try {
      const p = await resolveScoped(ctx, vpath, "download");
      if (p.stat !== null && isSameOrInside(dir.vpath, p.vpath)) selected.push(p);
    } catch (err) {
      log.debug(`archive: skipping "${vpath}"`, err);
    }
  }
  let root = commonDir(selected.map((p) => p.vpath)) || "/";
  if (selected.length === 1 && !selected[0].stat!.isDirectory) root = vpathDir(selected[0].vpath);
  let name = vpathBase(root);
  if (name === "") name = vpathBase(dir.vpath) || vpathBase(dir.confinement.rootReal) || "files";
  const finalRoot = root;
  async function* entries(): AsyncGenerator<ArchiveEntry> {
    for (const p of selected) yield* walk(p, finalRoot, new Set(), options.signal);
  }
  return { name, entries: entries() };
}
