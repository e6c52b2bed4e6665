/**
 * Moving entries between the files root and the trash directory. On one file system this is a rename (instant,
 * whatever the size); across file systems (EXDEV) the tree is copied, then the source removed. Symlinks are
 * moved as links, never followed.
 */
import { walkTree } from "../fs/tree.ts";

/** Moves `src` to `dst` (which must not exist); copies then removes when they are on different devices. */
export async function moveAnywhere(src: string, dst: string): Promise<void> {
  try {
    await Deno.rename(src, dst);
    return;
  } catch (err) {
    if ((err as { code?: unknown }).code !== "EXDEV") throw err;
  }
  try {
    await copyRaw(src, dst);
  } catch (err) {
    // Undo the partial copy: the source is still complete.
    await Deno.remove(dst, { recursive: true }).catch(() => {});
    throw err;
  }
  const info = await Deno.lstat(src);
  await Deno.remove(src, { recursive: info.isDirectory });
}

async function copyRaw(src: string, dst: string): Promise<void> {
  const top = await Deno.lstat(src);
  await copyOne(src, dst, top);
  if (!top.isDirectory) return;
  for await (const { rel, info } of walkTree(src)) await copyOne(`${src}/${rel}`, `${dst}/${rel}`, info);
}

async function copyOne(src: string, dst: string, info: Deno.FileInfo): Promise<void> {
  if (info.isSymlink) await Deno.symlink(await Deno.readLink(src), dst);
  else if (info.isDirectory) await Deno.mkdir(dst, { mode: info.mode ?? 0o755 });
  else {
    await Deno.copyFile(src, dst);
    if (info.mtime) await Deno.utime(dst, info.atime ?? info.mtime, info.mtime);
  }
}

/** Bytes of the files of an entry (a folder's whole tree; links count as 0). */
export async function sizeOfEntry(path: string, info: Deno.FileInfo): Promise<number> {
  if (info.isFile) return info.size;
  if (!info.isDirectory) return 0;
  let total = 0;
  for await (const e of walkTree(path)) if (e.info.isFile) total += e.info.size;
  return total;
}
