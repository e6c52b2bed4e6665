// This module is browser-compatible.
/**
 * Request paths to vpaths, in one place: the `[...path]` parameter of a route (which the router has decoded
 * already), and URL paths decoded segment by segment (pages, WebDAV, the client's router). A vpath is what the
 * gate (lib/fs/gate.ts) takes: it starts with `/` and may end with one; the gate cleans and checks it.
 */

/** The vpath of a route's `[...path]` parameter: `/` followed by the decoded rest (`""` or absent → `/`). */
export function vpathOfParam(param: string | undefined): string {
  return "/" + (param ?? "");
}

/** The rest of `pathname` below `prefix` (`/`-separated, still encoded; `/` for the prefix itself), or null. */
export function pathBelow(pathname: string, prefix: string): string | null {
  if (pathname !== prefix && !pathname.startsWith(prefix + "/")) return null;
  return pathname.slice(prefix.length) || "/";
}

/** Decodes each `/`-separated segment of a URL path; null when a percent-escape is malformed. */
export function decodePath(encoded: string): string | null {
  try {
    return encoded.split("/").map((s) => decodeURIComponent(s)).join("/");
  } catch {
    return null;
  }
}

/** Like decodePath, but a segment with a malformed escape stays as written (pages show what was typed). */
export function decodePathLenient(encoded: string): string {
  return encoded.split("/").map((s) => decodePath(s) ?? s).join("/");
}
