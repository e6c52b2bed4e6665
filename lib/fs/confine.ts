/**
 * Physical path resolution with symlink confinement (docs/security.md). Given a confinement root that is already a
 * real path and the segments of a clean vpath, finds where the entry lives on disk and refuses any symlink
 * (final component, ancestor, or dangling target) that resolves outside the root.
 */
import { ConflictError, ForbiddenError } from "../errors.ts";
import { canonicalPath, isSameOrInside, joinVpath, vpathDir } from "./path.ts";

/** Largest number of symlinks followed for one path (like upstream's 255). */
const MAX_SYMLINK_HOPS = 255;

/** Where a vpath lives on disk. */
export interface Resolution {
  /** On-disk path of the entry itself: the resolved parent plus the final name (a symlink stays a link). */
  path: string;
  /** Fully resolved location: the symlink target for links (dangling included), else `path`. */
  real: string;
  /** lstat of `path`, null when nothing is there. */
  lstat: Deno.FileInfo | null;
  /** stat of `real`, null when it does not exist (missing entry or dangling link). */
  stat: Deno.FileInfo | null;
}

/** lstat of `path`, or null when nothing is there (also when an ancestor is a file: ENOTDIR). */
export async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return null;
    throw err;
  }
}

/**
 * Synchronous {@link lstatOrNull}, for the lookups of one request's path in {@link resolveConfined}. An async
 * lstat hands the call to a worker thread and back, which measured about 0.07 ms of server CPU per call on the
 * 2-core bench machine (a third of a warm 4 KiB download); the call itself takes microseconds on a local file
 * system, so the event loop waits less than the hand-off costs (nginx stats synchronously too). Walkers, which
 * look up many entries, stay asynchronous.
 */
function lstatOrNullSync(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return null;
    throw err;
  }
}

interface Budget {
  hops: number;
  /** Looks again at an entry that changed between its lstat and its readlink (another process at work). */
  retries: number;
}

/** How often one resolution looks again at entries that keep changing under it. */
const MAX_RETRIES = 16;

function changedMeanwhile(cause: unknown): ConflictError {
  return new ConflictError("path_changed", "The path kept changing while it was checked; try again", {
    cause,
  });
}

/**
 * Walks `segments` from the real directory `start`, following every symlink like the kernel would.
 * Returns the physical location and whether it exists; for a missing tail the location is the resolved
 * existing part plus the lexically cleaned rest.
 */
async function walkPhysical(
  start: string,
  segments: string[],
  budget: Budget,
): Promise<{ real: string; exists: boolean }> {
  let cur = start;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      // `cur` has no symlinks in it, so its lexical parent is its physical parent.
      cur = vpathDir(cur);
      continue;
    }
    const next = joinVpath(cur, seg);
    const info = await lstatOrNull(next);
    if (info === null) {
      return { real: canonicalPath([next, ...segments.slice(i + 1)].join("/")), exists: false };
    }
    if (info.isSymlink) {
      if (--budget.hops < 0) throw new ForbiddenError("symlink_loop", "Too many levels of symbolic links");
      let target: string;
      try {
        target = await Deno.readLink(next);
      } catch (err) {
        // No longer a link (EINVAL), or gone, since the lstat: another process changed it; look again.
        if (err instanceof Deno.errors.NotFound || (err as { code?: string }).code === "EINVAL") {
          if (--budget.retries < 0) throw changedMeanwhile(err);
          i--;
          continue;
        }
        throw err;
      }
      const hop = await walkPhysical(target.startsWith("/") ? "/" : cur, target.split("/"), budget);
      if (!hop.exists) {
        return { real: canonicalPath([hop.real, ...segments.slice(i + 1)].join("/")), exists: false };
      }
      cur = hop.real;
      continue;
    }
    cur = next;
  }
  return { real: cur, exists: true };
}

async function realParent(
  rootReal: string,
  parentSegments: string[],
): Promise<{ real: string; exists: boolean }> {
  if (parentSegments.length === 0) return { real: rootReal, exists: true };
  try {
    // Fast path: one native call when every ancestor exists (synchronous, like lstatOrNullSync).
    return { real: Deno.realPathSync(joinVpath(rootReal, parentSegments.join("/"))), exists: true };
  } catch (err) {
    if (err instanceof Deno.errors.FilesystemLoop) {
      throw new ForbiddenError("symlink_loop", undefined, { cause: err });
    }
    if (!(err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory)) throw err;
  }
  return await walkPhysical(rootReal, parentSegments, { hops: MAX_SYMLINK_HOPS, retries: MAX_RETRIES });
}

function escape(): ForbiddenError {
  return new ForbiddenError("symlink_escape", "Path resolves outside the scope");
}

/**
 * Resolves clean vpath segments under `rootReal` (a real path) and refuses symlinks that leave it: an
 * ancestor whose real location is outside, a final link whose target is outside, and a dangling final link
 * whose would-be target is outside (so a write through it cannot create a file outside). Throws 403.
 */
export async function resolveConfined(rootReal: string, segments: string[]): Promise<Resolution> {
  if (segments.length === 0) {
    const info = Deno.lstatSync(rootReal);
    // The confinement root replaced by a link since its real path was taken: never followed.
    if (info.isSymlink) throw escape();
    return { path: rootReal, real: rootReal, lstat: info, stat: info };
  }
  const name = segments[segments.length - 1];
  const parent = await realParent(rootReal, segments.slice(0, -1));
  if (!isSameOrInside(rootReal, parent.real)) throw escape();
  const path = joinVpath(parent.real, name);
  if (!parent.exists) {
    const missing = canonicalPath(path);
    if (!isSameOrInside(rootReal, missing)) throw escape();
    return { path: missing, real: missing, lstat: null, stat: null };
  }
  const lstat = lstatOrNullSync(path);
  if (lstat === null || !lstat.isSymlink) return { path, real: path, lstat, stat: lstat };
  // Resolve the final link ourselves: realPath cannot tell where a dangling link would write.
  const target = await walkPhysical(parent.real, [name], { hops: MAX_SYMLINK_HOPS, retries: MAX_RETRIES });
  if (!isSameOrInside(rootReal, target.real)) throw escape();
  const stat = target.exists ? await lstatOrNull(target.real) : null;
  return { path, real: target.real, lstat, stat };
}

/** Lexical-only resolution for `followExternalSymlinks` mode: every link is followed wherever it points. */
export async function resolveLexical(root: string, segments: string[]): Promise<Resolution> {
  const path = segments.length === 0 ? root : joinVpath(root, segments.join("/"));
  const lstat = await lstatOrNull(path);
  if (lstat === null || !lstat.isSymlink) return { path, real: path, lstat, stat: lstat };
  let stat: Deno.FileInfo | null = null;
  let real = path;
  try {
    real = await Deno.realPath(path);
    stat = await Deno.stat(real);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return { path, real, lstat, stat };
}
