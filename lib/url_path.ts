// This module is browser-compatible.
/**
 * Virtual paths (vpaths) in URLs, one rule for the server and the browser: a vpath is encoded segment by segment
 * with `encodeURIComponent`, so the slashes stay while `#`, `?`, `%` and spaces inside names do not end or bend
 * the path. `joinPath` and `parentPath` are the folder arithmetic the UI does on vpaths.
 */

/** Encodes a vpath segment by segment (`/a b/c#` → `/a%20b/c%23`), keeping the slashes. */
export function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** Joins a folder vpath and a name: ("/a/", "b") → "/a/b". */
export function joinPath(dir: string, name: string): string {
  return `${dir.endsWith("/") ? dir : dir + "/"}${name}`;
}

/** The parent folder of a vpath, with a trailing slash: "/a/b.txt" → "/a/", "/a/b/" → "/a/". */
export function parentPath(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(0, trimmed.lastIndexOf("/") + 1) || "/";
}

/** A vpath as a folder: one trailing slash ("/a" → "/a/", "/a//" → "/a/"). */
export function folderPath(path: string): string {
  return path.replace(/\/*$/, "/");
}
