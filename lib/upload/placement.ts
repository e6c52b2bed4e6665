/**
 * Upload completion on disk: a complete staging file becomes the target file, atomically. On the same file
 * system the staging file itself is synced and moved (rename, or link + unlink when it must not replace);
 * from another device it is copied through lib/fs/atomic.ts's temp file next to the target.
 */
import { copyFileAtomic, DIR_MODE, FILE_MODE, renameOnto, syncDir, syncFile } from "../fs/atomic.ts";
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
  const dir = vpathDir(dest);
  await Deno.mkdir(dir, { recursive: true, mode: DIR_MODE });
  await syncFile(staging);
  try {
    await renameOnto(staging, dest, { replace: options.override });
  } catch (err) {
    if (errorCode(err) !== "EXDEV") throw err;
    await copyFileAtomic(staging, dest, { mode: FILE_MODE, kind: "upload", keepExisting: !options.override });
    await removeStagingFile(staging);
  }
  await syncDir(dir);
}
