// This module is browser-compatible.
/**
 * The one canonicaliser of `/`-separated paths, virtual (docs/api.md) and on disk alike, and their joins.
 * Pure string code, no disk access. On POSIX a backslash is an ordinary file-name character, never a
 * separator; NUL and control characters are left to the callers that know whether a name may hold them
 * (the gate refuses NUL, new names refuse control characters).
 */

/** A canonical vpath plus the "had a trailing slash" signal handlers use (POST = mkdir, PUT = 405). */
export interface CleanVpath {
  /** Absolute, lexically clean, never ends with `/` except for the root `/`. */
  path: string;
  /** True when the raw path ended with `/` (never for the root itself). */
  trailingSlash: boolean;
}

/**
 * The canonical absolute form of a path: one leading `/`, no empty or `.` segments, `..` removed lexically
 * (never above `/`), no trailing `/`. Relative input is taken from `/`.
 */
export function canonicalPath(raw: string): string {
  const out: string[] = [];
  for (const seg of raw.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return "/" + out.join("/");
}

/** An absolute canonical path: `path` as it is when absolute, else resolved against the absolute `cwd`. */
export function absolutePath(path: string, cwd: string): string {
  return canonicalPath(path.startsWith("/") ? path : `${cwd}/${path}`);
}

/** Canonicalises a decoded vpath ({@link canonicalPath}); a trailing `/` is kept as a flag. */
export function cleanVpath(raw: string): CleanVpath {
  const path = canonicalPath(raw);
  return { path, trailingSlash: path !== "/" && raw.endsWith("/") };
}

/** The segments of a canonical vpath (`/` → []). */
export function vpathSegments(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

/** Joins a canonical directory path (virtual or on disk) and one entry name. */
export function joinVpath(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

/** The last segment of a vpath ("" for the root). */
export function vpathBase(path: string): string {
  const clean = path.replace(/\/+$/, "");
  return clean.slice(clean.lastIndexOf("/") + 1);
}

/** The parent of a canonical path, virtual or on disk (`/` for top-level entries and for the root). */
export function vpathDir(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

/** True when `child` equals `parent` or lies beneath it, by whole segments (`/srv` never holds `/srvother`). */
export function isSameOrInside(parent: string, child: string): boolean {
  if (parent === "/") return child.startsWith("/");
  return child === parent || child.startsWith(parent + "/");
}

/** The suffix from the last `.` of a name, dot included (`.gz` for `a.tar.gz`, `.bashrc`, or ""). */
export function extensionOf(name: string): string {
  const i = name.lastIndexOf(".");
  return i < 0 ? "" : name.slice(i);
}

/** Splits a name into stem and last extension for auto-numbering (`a.tar.gz` → `a.tar` + `.gz`). */
export function splitExtension(name: string): { stem: string; ext: string } {
  const ext = extensionOf(name);
  return { stem: name.slice(0, name.length - ext.length), ext };
}

/**
 * The longest common directory of several vpaths, compared by whole segments after cleaning.
 * A single path is its own root; paths sharing nothing but `/` give `""`.
 */
export function commonDir(paths: string[]): string {
  if (paths.length === 0) return "";
  const lists = paths.map((p) => vpathSegments(cleanVpath(p).path));
  const first = lists[0];
  let n = first.length;
  for (const segs of lists.slice(1)) {
    let i = 0;
    while (i < n && i < segs.length && segs[i] === first[i]) i++;
    n = i;
  }
  if (n === 0) return "";
  return "/" + first.slice(0, n).join("/");
}
