/**
 * Copying files and trees inside one confinement (docs/api.md#resources). Files land atomically (temp +
 * rename); a tree copy continues past failing entries and reports them at the end; symlinks are followed only
 * when they stay inside the scope, and then copied as regular files. A link whose target the user may not see
 * (hidden dot-file, denied by a rule) is skipped like the target itself: listings omit it, copies never read it.
 */
import { HttpError } from "../errors.ts";
import { log } from "../log.ts";
import { copyFileAtomic, DIR_MODE, placeAtomically } from "./atomic.ts";
import { isConfinedLink, scopedChild, type ScopedPath } from "./gate.ts";
import { joinVpath } from "./path.ts";

/** Options of {@link copyEntry}. */
export interface CopyOptions {
  signal?: AbortSignal;
  /** Recreate symlinks as links instead of copying what they point to (a move's copy fallback). */
  keepLinks?: boolean;
}

/** Recreates the symlink `src` (an on-disk link path) at `dest` with the same target text, atomically. */
export async function copyLinkAtomic(src: string, dest: string): Promise<void> {
  const target = await Deno.readLink(src);
  await placeAtomically(dest, (temp) => Deno.symlink(target, temp), { kind: "copy", sync: false });
}

/** Why some entries of a tree copy failed (the rest was copied). */
export class CopyIncompleteError extends HttpError {
  readonly failures: string[];
  constructor(failures: string[]) {
    super(
      500,
      "copy_incomplete",
      `Cannot copy ${failures.length} entries: ${failures.slice(0, 5).join(", ")}`,
    );
    this.failures = failures;
  }
}

async function copyTree(
  src: ScopedPath,
  dst: ScopedPath,
  failures: string[],
  options: CopyOptions,
): Promise<void> {
  if (!dst.stat?.isDirectory) {
    await Deno.mkdir(dst.real, { recursive: true, mode: (src.stat?.mode ?? DIR_MODE) & 0o7777 });
  }
  const entries: Deno.DirEntry[] = [];
  try {
    for await (const e of Deno.readDir(src.real)) entries.push(e);
  } catch (err) {
    failures.push(src.vpath);
    log.warn(`copy: cannot read "${src.vpath}"`, err);
    return;
  }
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const { name, isSymlink } of entries) {
    options.signal?.throwIfAborted();
    if (isSymlink && options.keepLinks) {
      await copyLink(src, dst, name, failures);
      continue;
    }
    // Descendants are judged by rules only (hidden dot-files are copied, like upstream); links must stay inside.
    const from = await scopedChild(src, name, { ignoreHidden: true });
    if (from === null) {
      // An in-scope link whose target is hidden or denied does not exist for this user: skip it, no failure.
      const vpath = joinVpath(src.vpath, name);
      if (isSymlink && await isConfinedLink(src.confinement, vpath)) log.debug(`copy: skipping "${vpath}"`);
      else failures.push(vpath);
      continue;
    }
    if (from.stat === null) {
      failures.push(from.vpath);
      continue;
    }
    const to = await scopedChild(dst, name, { ignoreHidden: true, allowMissing: true });
    if (to === null) {
      failures.push(`${dst.vpath}/${name}`);
      continue;
    }
    try {
      if (from.stat.isDirectory) {
        // A symlink to a folder is not descended into (loops, escapes): upstream fails it too.
        if (from.lstat?.isSymlink) throw new Error("symlinked folder");
        await copyTree(from, to, failures, options);
      } else if (from.stat.isFile) {
        if (to.stat?.isDirectory) throw new Error("a folder is in the way");
        await copyFileAtomic(from.real, to.real, { signal: options.signal });
      } else {
        throw new Error("not a regular file");
      }
    } catch (err) {
      if (options.signal?.aborted) throw err;
      failures.push(from.vpath);
      log.warn(`copy: cannot copy "${from.vpath}"`, err);
    }
  }
}

/** keepLinks: the link itself moves, whatever it points to (like rename(2)); the gate judges it on use. */
async function copyLink(src: ScopedPath, dst: ScopedPath, name: string, failures: string[]): Promise<void> {
  const to = await scopedChild(dst, name, { ignoreHidden: true, allowMissing: true });
  const from = `${src.real}/${name}`;
  try {
    if (to === null) throw new Error("destination refused");
    if (to.lstat?.isDirectory) throw new Error("a folder is in the way");
    await copyLinkAtomic(from, to.path);
  } catch (err) {
    failures.push(joinVpath(src.vpath, name));
    log.warn(`copy: cannot recreate link "${joinVpath(src.vpath, name)}"`, err);
  }
}

/**
 * Copies `src` to `dst` (both gate-approved). A folder is merged into an existing destination folder; errors
 * on single entries do not stop the copy but end in a 500 listing them. Files are written atomically.
 */
export async function copyEntry(src: ScopedPath, dst: ScopedPath, options: CopyOptions = {}): Promise<void> {
  if (src.stat === null) throw new HttpError(404, "not_found");
  if (src.stat.isDirectory) {
    const failures: string[] = [];
    await copyTree(src, dst, failures, options);
    if (failures.length) throw new CopyIncompleteError(failures);
    return;
  }
  await copyFileAtomic(src.real, dst.real, { signal: options.signal });
}
