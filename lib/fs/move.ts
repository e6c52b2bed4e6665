/**
 * Moving entries (docs/api.md#resources). rename(2) when possible; across devices, or onto a non-empty folder
 * with override, the data is copied first and the source removed only after the copy is complete, so an
 * interruption never loses the source.
 */
import { ensureDirBeneath, pinAt, remove, rename } from "./floor.ts";
import { ConflictError } from "../errors.ts";
import { DIR_MODE, tempPathFor } from "./atomic.ts";
import { copyEntry, copyLinkAtomic } from "./copy.ts";
import { type ScopedPath, scopedTempSibling } from "./gate.ts";
import { vpathDir } from "./path.ts";

function errorCode(err: unknown): string {
  return (err as { code?: string })?.code ?? "";
}

/** Options of {@link moveEntry}. */
export interface MoveOptions {
  signal?: AbortSignal;
  /** Tests only: skip rename(2) and take the copy-then-remove path. */
  forceCopy?: boolean;
}

/**
 * Moves `src` to `dst` (both gate-approved; a symlink moves as a link). An existing destination is replaced
 * (file over file, folder over empty folder) or merged (folder over non-empty folder); a file/folder mismatch
 * is 409.
 */
export async function moveEntry(src: ScopedPath, dst: ScopedPath, options: MoveOptions = {}): Promise<void> {
  const srcIsDir = src.lstat?.isDirectory === true;
  if (
    dst.lstat !== null && dst.stat !== null && dst.stat.isDirectory !== srcIsDir && !isSameEntry(src, dst)
  ) {
    throw new ConflictError(
      "kind_mismatch",
      `Cannot move "${src.vpath}": "${dst.vpath}" is a different kind of entry`,
    );
  }
  const anchor = dst.confinement.anchor;
  if (anchor) ensureDirBeneath(anchor, vpathDir(dst.path), DIR_MODE);
  // floor-exempt: no floor in the unsafe mode that follows external links (anchor "").
  else await Deno.mkdir(vpathDir(dst.path), { recursive: true, mode: DIR_MODE });
  if (!options.forceCopy) {
    try {
      using from = pinAt(src);
      using to = pinAt(dst);
      await rename(from, to);
      return;
    } catch (err) {
      const code = errorCode(err);
      if (code !== "EXDEV" && code !== "ENOTEMPTY" && code !== "EEXIST") throw err;
    }
  }
  await copyThenRemove(src, dst, options);
}

/** True when both paths name the same inode (e.g. a case-only rename on a case-insensitive disk). */
export function isSameEntry(a: ScopedPath, b: ScopedPath): boolean {
  if (!a.lstat || !b.lstat || a.lstat.ino === null || a.lstat.dev === null) return false;
  return a.lstat.ino === b.lstat.ino && a.lstat.dev === b.lstat.dev;
}

async function copyThenRemove(src: ScopedPath, dst: ScopedPath, options: MoveOptions): Promise<void> {
  // Links inside the tree are recreated as links, as rename(2) would keep them: following them would copy
  // their targets' bytes (a hidden file's too) and turn links into files.
  const copyOptions = { signal: options.signal, keepLinks: true };
  if (src.lstat?.isSymlink) {
    await copyLinkAtomic(src.confinement.anchor, src.path, dst.path);
  } else if (dst.stat?.isDirectory) {
    // Merge into an existing folder: every file lands atomically; the source stays until all are copied.
    await copyEntry(src, dst, copyOptions);
  } else {
    // Copy beside the destination, then rename into place: readers see nothing or everything.
    const temp = scopedTempSibling(dst, tempPathFor(dst.path, "move"));
    try {
      await copyEntry(src, temp, copyOptions);
      using from = pinAt(temp);
      using to = pinAt(dst);
      await rename(from, to);
    } catch (err) {
      using leftover = pinAt(temp);
      await remove(leftover, { recursive: true }).catch(() => {});
      throw err;
    }
  }
  using gone = pinAt(src);
  await remove(gone, { recursive: src.lstat?.isDirectory === true });
}
