/**
 * Staging files of unfinished uploads. They live in `config.uploadDir`, outside the files root, so a
 * partial upload is never visible and an existing file is never touched until the upload is complete.
 * On completion the staging file is placed atomically (placement.ts).
 */
import { FILE_MODE } from "../fs/atomic.ts";
import { openFile, remove, serverPath, stat } from "../fs/floor.ts";

const STAGING_SUFFIX = ".part";

/** The staging file of upload `id`. */
export function stagingPath(uploadDir: string, id: string): string {
  return `${uploadDir}/${id}${STAGING_SUFFIX}`;
}

/** The upload id a staging file name belongs to, or null for other files. */
export function uploadIdOf(fileName: string): string | null {
  return fileName.endsWith(STAGING_SUFFIX) ? fileName.slice(0, -STAGING_SUFFIX.length) : null;
}

/** Creates an empty staging file (and the staging directory on first use). */
export async function createStagingFile(uploadDir: string, id: string): Promise<string> {
  await Deno.mkdir(uploadDir, { recursive: true, mode: 0o700 });
  const path = stagingPath(uploadDir, id);
  const file = await openFile(serverPath(path), { write: true, createNew: true, mode: FILE_MODE });
  file.close();
  return path;
}

/** Size of a staging file, or null when it is gone. */
export async function stagingSize(path: string): Promise<number | null> {
  try {
    return (await stat(serverPath(path))).size;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** Removes a staging file; a missing file is fine. */
export async function removeStagingFile(path: string): Promise<void> {
  await remove(serverPath(path)).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
}
