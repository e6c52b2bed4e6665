/**
 * The project's root folder (where static/, locales/ and _build/ live), as a path without a trailing slash.
 * Written as `../` from this first-level folder so it means the same inside the server bundle
 * (`_build/server.js`, also one level down).
 */
export const PROJECT_ROOT: string = new URL("../", import.meta.url).pathname.replace(/\/$/, "");

/**
 * The URL of a file of the project by its path from the root (`lib/search/index/watch_worker.ts`): for workers
 * and other files loaded by URL, where `new URL("./x.ts", import.meta.url)` would point into `_build/` when the
 * server runs from its bundle.
 */
export function projectUrl(path: string): URL {
  return new URL(path.replace(/^\/+/, ""), new URL("../", import.meta.url));
}
