/**
 * Staging files of unfinished uploads. They live in `config.uploadDir`, outside the files root, so a
 * partial upload is never visible and an existing file is never touched until the upload is complete.
 * On completion the staging file is moved into place atomically.
 */
import { ConflictError } from "../errors.ts";

/** Mode of staged and placed files (upstream's default file mode). */
export const FILE_MODE = 0o640;
/** Mode of directories created for an upload's target (upstream's default directory mode). */
export const DIR_MODE = 0o750;
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
  const file = await Deno.open(path, { write: true, createNew: true, mode: FILE_MODE });
  file.close();
  return path;
}

/** Size of a staging file, or null when it is gone. */
export async function stagingSize(path: string): Promise<number | null> {
  try {
    return (await Deno.stat(path)).size;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** Removes a staging file; a missing file is fine. */
export async function removeStagingFile(path: string): Promise<void> {
  await Deno.remove(path).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
}

/** Flushes a staging file's data to disk before it is moved into place. */
export async function syncStagingFile(path: string): Promise<void> {
  const file = await Deno.open(path, { read: true, write: true });
  try {
    await file.syncData();
  } finally {
    file.close();
  }
}

function errorCode(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

function baseOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

async function syncDir(dir: string): Promise<void> {
  // Make the rename durable; some file systems refuse fsync on a directory, which is harmless.
  try {
    const handle = await Deno.open(dir, { read: true });
    try {
      await handle.sync();
    } finally {
      handle.close();
    }
  } catch {
    return;
  }
}

/** Moves `from` onto `target`: replace with rename, or no-replace with link+unlink (EEXIST → 409). */
async function moveOnto(from: string, target: string, options: { override: boolean }): Promise<void> {
  if (options.override) {
    await Deno.rename(from, target);
    return;
  }
  try {
    // link() never replaces: a file that appeared since the checks stays untouched.
    await Deno.link(from, target);
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) {
      throw new ConflictError("target_exists", `Cannot place upload "${baseOf(target)}": target exists`);
    }
    const code = errorCode(err);
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw err;
    // File systems without hard links: check, then rename (a narrow race, but never a silent loss of a
    // file that existed at the check).
    if (await Deno.lstat(target).then(() => true, () => false)) {
      throw new ConflictError("target_exists", `Cannot place upload "${baseOf(target)}": target exists`);
    }
    await Deno.rename(from, target);
    return;
  }
  await Deno.remove(from);
}

/**
 * Moves a complete staging file to `target` atomically, creating missing parent directories. An existing
 * file is replaced only with `override` (else 409). When the staging directory is on another device the
 * data is first copied into a temporary file next to the target, then moved the same way.
 */
export async function placeFile(
  staging: string,
  target: string,
  options: { override: boolean },
): Promise<void> {
  const dir = dirOf(target);
  await Deno.mkdir(dir, { recursive: true, mode: DIR_MODE });
  try {
    await moveOnto(staging, target, options);
  } catch (err) {
    if (errorCode(err) !== "EXDEV") throw err;
    const temp = `${dir}/.${baseOf(target)}.upload-${crypto.randomUUID()}.tmp`;
    try {
      await Deno.copyFile(staging, temp);
      await Deno.chmod(temp, FILE_MODE);
      await syncStagingFile(temp);
      await moveOnto(temp, target, options);
    } catch (copyErr) {
      await removeStagingFile(temp);
      throw copyErr;
    }
    await removeStagingFile(staging);
  }
  await syncDir(dir);
}
