/**
 * The gate's checks of what a client may ask for: a path the file system cannot take is a 400/414 here, not a
 * 500 from the system call; a new entry must get a name that every endpoint can address again (no control
 * characters, no separators inside a name).
 */
import { BadRequestError, UriTooLongError } from "../errors.ts";
import { MAX_NAME_BYTES, MAX_PATH_BYTES, newNameProblem, pathProblem, utf8Length } from "../names.ts";
import type { Need, ScopedPath } from "./gate.ts";
import { walkTree } from "./tree.ts";

const NAME_PROBLEMS: Record<string, string> = {
  empty: "name is empty",
  dot: `name is "." or ".."`,
  control: "name contains a control character",
  bidi: "name contains a bidirectional control character (U+202A-202E, U+2066-2069, U+200E, U+200F, U+061C)",
  separator: `name contains "/" or "\\"`,
  too_long: `name is longer than ${MAX_NAME_BYTES} bytes`,
};

function shorten(s: string): string {
  return JSON.stringify(s.length > 40 ? s.slice(0, 40) + "…" : s);
}

/**
 * Throws unless `vpath` joined to the confinement root can exist: no NUL byte (400), no name over 255 bytes
 * (400), at most PATH_MAX bytes in all (414).
 */
export function assertPathFits(rootReal: string, vpath: string): void {
  switch (pathProblem(rootReal === "/" ? vpath : rootReal + vpath)) {
    case "nul":
      throw new BadRequestError("path contains a NUL byte", { code: "nul_byte" });
    case "name_too_long": {
      const name = vpath.split("/").find((s) => new TextEncoder().encode(s).length > MAX_NAME_BYTES) ?? "";
      throw new BadRequestError(`name ${shorten(name)} is longer than ${MAX_NAME_BYTES} bytes`, {
        code: "name_too_long",
      });
    }
    case "path_too_long":
      throw new UriTooLongError("path_too_long", `path is longer than ${MAX_PATH_BYTES + 1} bytes`);
  }
}

/** True when an operation with this need may create the entry it addresses (upload, mkdir, copy, move). */
export function isCreating(need: Need | readonly Need[]): boolean {
  const needs: readonly Need[] = typeof need === "string" ? [need] : need;
  return needs.includes("create") || needs.includes("rename");
}

/**
 * Throws 400 when a missing part of `segments` (under the real directory `rootReal`) is not a valid new name.
 * Existing ancestors are not judged: odd names already on disk stay usable as parents.
 */
export async function assertNewNames(rootReal: string, segments: readonly string[]): Promise<void> {
  for (let i = segments.length - 1; i >= 0; i--) {
    const base = rootReal === "/" ? "" : rootReal;
    if (i < segments.length - 1 && await exists(`${base}/${segments.slice(0, i + 1).join("/")}`)) return;
    const problem = newNameProblem(segments[i]);
    if (problem) {
      throw new BadRequestError(`cannot create ${shorten(segments[i])}: ${NAME_PROBLEMS[problem]}`, {
        code: "bad_name",
      });
    }
  }
}

/**
 * Throws 400 when copying or moving the folder `src` to `dst` would put a descendant past PATH_MAX: it could
 * then never be read, renamed or deleted through any endpoint. Walks only when `dst` is the longer path.
 */
export async function assertTreeFits(src: ScopedPath, dst: ScopedPath): Promise<void> {
  if (!src.stat?.isDirectory) return;
  const base = utf8Length(dst.real);
  if (base <= utf8Length(src.real)) return;
  let deepest = "";
  try {
    for await (const { rel } of walkTree(src)) {
      if (base + 1 + utf8Length(rel) > MAX_PATH_BYTES) {
        deepest = rel;
        break;
      }
    }
  } catch (err) {
    // An unreadable or vanishing folder: the copy itself reports it; nothing more to measure here.
    if (!(err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied)) throw err;
  }
  if (deepest) {
    throw new BadRequestError(
      `cannot place ${shorten(deepest)} under ${shorten(dst.vpath)}: the path would exceed ${
        MAX_PATH_BYTES + 1
      } bytes`,
      { code: "path_too_long" },
    );
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    // floor-exempt: a check of the gate (is a new name free?); what is then created goes through the floor.
    await Deno.lstat(path);
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return false;
    throw err;
  }
}
