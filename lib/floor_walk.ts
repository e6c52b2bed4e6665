/**
 * Walks below a folder through the disk floor (lib/fs/floor.ts), for the modules outside lib/fs that go over a
 * user's tree (trash, previews). Each folder is pinned (opened beneath the files root without following any
 * symlink) while its names are read and its entries lstat'ed relative to that descriptor; then the pin is
 * closed, so a walk holds one descriptor at a time. A sub-folder is pinned again by its real path (the parent's
 * real path and its name: symlink-free, since it was a folder and not a link when it was listed), so a folder
 * swapped for a link since it was listed fails its pin (403) instead of being entered. Links are yielded, never
 * followed. With the anchor "" (a server path, or the unsafe mode that follows external links) the pins are
 * plain paths.
 */
import { lstat, Pin, pinObject, readDirNames } from "./fs/floor.ts";
import { joinVpath } from "./fs/path.ts";

/** One entry below a walked folder: its path relative to the walk's folder (`a/b.txt`) and its lstat. */
export interface FloorEntry {
  rel: string;
  info: Deno.FileInfo;
}

/** An entry of a folder whose pin is held: the path goes through the pinned descriptor (valid while held). */
export function entryOf(folder: Pin, name: string): Pin {
  return new Pin(-1, `${folder.path}/${name}`);
}

/** The names of the folder `real` (beneath `anchor`) in code unit order, each with its lstat. */
async function readFolder(anchor: string, real: string): Promise<{ name: string; info: Deno.FileInfo }[]> {
  using folder = pinObject(anchor, real);
  const names = (await readDirNames(folder)).sort();
  const out: { name: string; info: Deno.FileInfo }[] = [];
  for (const name of names) out.push({ name, info: await lstat(entryOf(folder, name)) });
  return out;
}

/**
 * Yields every entry below the folder `dir` (a real path beneath `anchor`, the files root's real path as the
 * gate's confinement gives it; "" for a server path) in pre-order, names sorted, without following symlinks.
 * An unreadable folder throws, and so does one swapped for a symlink since it was listed (403 `symlink_escape`).
 */
export async function* walkBeneath(
  anchor: string,
  dir: string,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<FloorEntry> {
  const stack: string[] = [""];
  while (stack.length) {
    const rel = stack.pop()!;
    const entries = await readFolder(anchor, rel ? joinVpath(dir, rel) : dir);
    const dirs: string[] = [];
    for (const { name, info } of entries) {
      options.signal?.throwIfAborted();
      const childRel = rel ? `${rel}/${name}` : name;
      yield { rel: childRel, info };
      if (info.isDirectory) dirs.push(childRel);
    }
    for (const d of dirs.reverse()) stack.push(d);
  }
}
