/**
 * Upload completion on disk: a complete staging file becomes the target file, atomically. On the same file
 * system the staging file itself is synced and moved (rename, or link + unlink when it must not replace);
 * from another device it is copied through lib/fs/atomic.ts's temp file next to the target.
 *
 * The target's side goes through the disk floor (lib/fs/floor.ts): missing folders are made one at a time in
 * pinned parents, and the move names the target in its pinned folder, so a folder swapped for a link since the
 * gate's check is refused (403), never followed. The staging file is the server's.
 */
import { copyFileAtomic, DIR_MODE, FILE_MODE, renameOnto, syncDir, syncFile } from "../fs/atomic.ts";
import { ensureDirBeneath, pinEntryIn } from "../fs/floor.ts";
import type { ScopedPath } from "../fs/gate.ts";
import { vpathDir } from "../fs/path.ts";
import { removeStagingFile } from "./staging.ts";

function errorCode(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

/**
 * Places a complete staging file at `target` (gate-approved), creating missing parent folders. An existing
 * file is replaced only with `override` (else 409 `target_exists`, and the file stays untouched).
 */
export async function placeFile(
  staging: string,
  target: ScopedPath,
  options: { override: boolean },
): Promise<void> {
  const dest = target.real;
  ensureDirBeneath(target.confinement.anchor, vpathDir(dest), DIR_MODE);
  await syncFile(staging);
  // `/proc/self/fd/N/<name>`: the target's folder is held open from here on.
  using at = pinEntryIn(target, dest);
  try {
    await renameOnto(staging, at.path, { replace: options.override });
  } catch (err) {
    if (errorCode(err) !== "EXDEV") throw err;
    // The copy's temp file is made in the target's folder, pinned by placeAtomically through the anchor.
    await copyFileAtomic(staging, dest, {
      mode: FILE_MODE,
      kind: "upload",
      keepExisting: !options.override,
      anchor: target.confinement.anchor,
    });
    await removeStagingFile(staging);
  }
  await syncDir(vpathDir(at.path));
}
