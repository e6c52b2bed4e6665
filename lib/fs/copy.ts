/**
 * Copying files and trees inside one confinement (docs/api.md#resources). Files land atomically (temp +
 * rename); a tree copy continues past failing entries and reports them at the end; symlinks are followed only
 * when they stay inside the scope, and then copied as regular files. A link whose target the user may not see
 * (hidden dot-file, denied by a rule) is skipped like the target itself: listings omit it, copies never read it.
 */
import { ForbiddenError, HttpError } from "../errors.ts";
import { log } from "../log.ts";
import { copyFileAtomic, DIR_MODE, placeAtomically, tempPathFor } from "./atomic.ts";
import { isConfinedLink, scopedChild, type ScopedPath, scopedTempSibling } from "./gate.ts";
import {
  ensureDirBeneath,
  pinAt,
  pinEntry,
  pinTarget,
  readDir,
  readLink,
  remove,
  rename,
  renameNoReplace,
  serverPath,
  symlink,
} from "./floor.ts";
import { joinVpath } from "./path.ts";

/** Options of {@link copyEntry}. */
export interface CopyOptions {
  signal?: AbortSignal;
  /** Recreate symlinks as links instead of copying what they point to (a move's copy fallback). */
  keepLinks?: boolean;
}

/**
 * Recreates the symlink `src` (an on-disk link path beneath `anchor`, the files root) at `dest` with the same
 * target text, atomically; both ends go through the disk floor.
 */
export async function copyLinkAtomic(anchor: string, src: string, dest: string): Promise<void> {
  let target: string;
  {
    using link = pinEntry(anchor, src);
    target = await readLink(link);
  }
  await placeAtomically(dest, (temp) => symlink(target, serverPath(temp)), {
    kind: "copy",
    sync: false,
    anchor,
  });
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
    ensureDirBeneath(dst.confinement.anchor, dst.real, (src.stat?.mode ?? DIR_MODE) & 0o7777);
  }
  const entries: Deno.DirEntry[] = [];
  try {
    using pin = pinTarget(src);
    for await (const e of readDir(pin)) entries.push(e);
  } catch (err) {
    // Refused by the disk floor (swapped for a link since it was checked): the copy is refused as a whole.
    if (err instanceof HttpError && err.status < 500) throw err;
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
      else if (isSymlink) {
        throw new ForbiddenError("symlink_escape", `"${vpath}" is a link that leads out of the scope`);
      } else failures.push(vpath);
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
        using pin = pinTarget(from);
        await copyFileAtomic(pin, to.real, { signal: options.signal, anchor: to.confinement.anchor });
      } else {
        throw new Error("not a regular file");
      }
    } catch (err) {
      if (options.signal?.aborted) throw err;
      if (err instanceof HttpError && err.status < 500) throw err;
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
    await copyLinkAtomic(src.confinement.anchor, from, to.path);
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
    if (dst.lstat !== null || options.keepLinks) {
      // Merged into an existing folder (or a move's copy, which lands in its own temp folder).
      await copyTree(src, dst, failures, options);
      if (failures.length) throw new CopyIncompleteError(failures);
      return;
    }
    // A new folder is built beside the destination and renamed into place once complete: a copy refused
    // midway (a link that leads out of the scope: 403) or cancelled leaves no partial destination.
    const temp = scopedTempSibling(dst, tempPathFor(dst.real, "copy"));
    try {
      await copyTree(src, temp, failures, options);
      using from = pinAt(temp);
      using to = pinAt(dst);
      if (!renameNoReplace(from, to)) await rename(from, to);
    } catch (err) {
      using leftover = pinAt(temp);
      await remove(leftover, { recursive: true }).catch(() => {});
      throw err;
    }
    if (failures.length) throw new CopyIncompleteError(failures);
    return;
  }
  using pin = pinTarget(src);
  await copyFileAtomic(pin, dst.real, { signal: options.signal, anchor: dst.confinement.anchor });
}
