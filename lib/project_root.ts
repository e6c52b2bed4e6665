/**
 * The project's root folder (where static/, locales/ and _build/ live), as a path without a trailing slash.
 * Written as `../` from this first-level folder so it means the same inside the server bundle
 * (`_build/server.js`, also one level down).
 */
export const PROJECT_ROOT: string = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
