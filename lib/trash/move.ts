/**
 * Moving entries between the files root and the trash directory. On one file system this is a rename (instant,
 * whatever the size); across file systems (EXDEV) the tree is copied, then the source removed. Symlinks are
 * moved as links, never followed.
 *
 * The user's side of a move reaches the disk through the floor (lib/fs/floor.ts): every entry is named through a
 * pinned parent folder, folders are walked pinned (lib/fs/tree.ts), files are read from a pinned object and
 * created exclusively, so a folder swapped for a link since the gate checked it is refused (403), never followed.
 * The trash store is the server's own directory: its side uses plain server paths.
 */
import { ForbiddenError } from "../errors.ts";
import {
  copyFile,
  lstat,
  mkdir,
  openFile,
  type Pin,
  pinEntryIn,
  pinRealIn,
  readLink,
  remove,
  rename,
  serverPath,
  statSync,
  symlink,
  utime,
} from "../fs/floor.ts";
import type { ScopedPath } from "../fs/gate.ts";
import { type TreeEntry, walkTree } from "../fs/tree.ts";

/** One end of a move: an entry in a user's files (pinned by the floor) or a path of the server's trash store. */
export interface Place {
  /** The entry (a link stays a link): a real parent folder and a name, or a server path. */
  readonly path: string;
  /** The floor's anchor of the user's files ("" for a server path, and in the unsafe mode). */
  readonly anchor: string;
  /** Pins the entry `path` (this place's path or one below it): its parent is held, the name not followed. */
  entry(path: string): Pin;
  /** Pins the object at `path` (a real path, this place's or one below it); a link there is refused (403). */
  object(path: string): Pin;
}

/** The entry of a checked path (a link is the link itself), for moving it. */
export function entryPlace(p: ScopedPath): Place {
  return placeOf(p, p.path);
}

/** What a checked path leads to (a link's target), for measuring it. */
export function targetPlace(p: ScopedPath): Place {
  return placeOf(p, p.real);
}

function placeOf(p: ScopedPath, path: string): Place {
  return {
    path,
    anchor: p.confinement.anchor,
    entry: (at) => pinEntryIn(p, at),
    object: (at) => pinRealIn(p, at),
  };
}

/** A path of the server's trash store (never a user's path). */
export function storePlace(path: string): Place {
  return { path, anchor: "", entry: serverPath, object: serverPath };
}

function errorCode(err: unknown): unknown {
  return (err as { code?: unknown } | null)?.code;
}

/** Moves `from` to `to` (which must not exist); copies then removes when they are on different devices. */
export async function moveAnywhere(from: Place, to: Place): Promise<void> {
  try {
    using src = from.entry(from.path);
    using dst = to.entry(to.path);
    await rename(src, dst);
    return;
  } catch (err) {
    if (errorCode(err) !== "EXDEV") throw err;
  }
  try {
    await copyRaw(from, to);
  } catch (err) {
    // Undo the partial copy: the source is still complete.
    try {
      using dst = to.entry(to.path);
      await remove(dst, { recursive: true }).catch(() => {});
    } catch {
      // The destination's folder is gone or swapped: nothing of ours to undo there.
    }
    throw err;
  }
  using src = from.entry(from.path);
  const info = await lstat(src);
  await remove(src, { recursive: info.isDirectory });
}

async function copyRaw(from: Place, to: Place): Promise<void> {
  const top = await lstatOf(from, from.path);
  await copyOne(from, from.path, to, to.path, top);
  if (!top.isDirectory) return;
  for await (const { rel, info } of walkPlace(from)) {
    await copyOne(from, `${from.path}/${rel}`, to, `${to.path}/${rel}`, info);
  }
}

/** The entries below a place's folder, walked through the floor (its anchor "": a server path, plain). */
function walkPlace(place: Place): AsyncGenerator<TreeEntry> {
  return walkTree({ real: place.path, path: place.path, confinement: { anchor: place.anchor } });
}

async function lstatOf(place: Place, path: string): Promise<Deno.FileInfo> {
  using entry = place.entry(path);
  return await lstat(entry);
}

async function copyOne(from: Place, src: string, to: Place, dst: string, info: Deno.FileInfo): Promise<void> {
  if (info.isSymlink) {
    let target: string;
    {
      using link = from.entry(src);
      target = await readLink(link);
    }
    using made = to.entry(dst);
    await symlink(target, made);
  } else if (info.isDirectory) {
    using made = to.entry(dst);
    await mkdir(made, { mode: info.mode ?? 0o755 });
  } else {
    using source = from.object(src);
    // A FIFO or a device (swapped in, or left by someone) would block the copy: refused like the floor's open.
    if (!statSync(source).isFile) throw new ForbiddenError("not_regular", "Not a regular file");
    {
      // Created exclusively (O_EXCL does not follow a link put at the name), then filled through its own pin.
      using entry = to.entry(dst);
      (await openFile(entry, { write: true, createNew: true, mode: 0o600 })).close();
    }
    using made = to.object(dst);
    // Deno.copyFile gives the copy the source's permissions, as the copy of earlier versions did.
    await copyFile(source, made);
    if (info.mtime) await utime(made, info.atime ?? info.mtime, info.mtime);
  }
}

/**
 * Bytes of the files of an entry (a folder's whole tree; links count as 0). A string is a path walked without
 * pins (server paths; lib/fs/transfer.ts until it passes its checked path as a {@link targetPlace}).
 */
export async function sizeOfEntry(at: Place | string, info: Deno.FileInfo): Promise<number> {
  if (info.isFile) return info.size;
  if (!info.isDirectory) return 0;
  const place = typeof at === "string" ? storePlace(at) : at;
  let total = 0;
  for await (const e of walkPlace(place)) if (e.info.isFile) total += e.info.size;
  return total;
}
