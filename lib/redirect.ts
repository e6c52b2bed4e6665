// This module is browser-compatible.
/** Validation of the `?redirect=` target of the login page, shared by the server and the login island. */

/** Where a login goes when the requested target is missing or unsafe. */
export const DEFAULT_REDIRECT = "/files/";

/** A placeholder origin to resolve against when the real one does not matter (only sameness is checked). */
const PLACEHOLDER_ORIGIN = "http://redirect.invalid";

// C0/C1 control characters, DEL and whitespace that the URL parser strips or that end a header line, and
// backslashes, which the parser treats as slashes in http(s) URLs (`/\evil` is `//evil`).
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0020\u007f-\u009f\\]/;

/** Options of safeRedirect. */
export interface SafeRedirectOptions {
  /** Base URL of the app ("" or "/prefix" without trailing slash). */
  baseUrl: string;
  /** Origin of the site (`location.origin` in the browser); any fixed origin works on the server. */
  origin?: string;
}

/**
 * Returns `value` as a path relative to the base URL (starting with exactly one `/`) when it resolves to a path
 * under the base URL of this origin, else DEFAULT_REDIRECT. The result is the parser's own serialisation, so
 * `${baseUrl}${result}` is a same-origin URL in every browser and a valid `Location` header.
 */
export function safeRedirect(value: string | null | undefined, options: SafeRedirectOptions): string {
  if (typeof value !== "string" || value === "" || value.length > 4096) return DEFAULT_REDIRECT;
  // Reject before parsing: the parser silently drops tabs and newlines (`/%09/evil` becomes `//evil`).
  if (UNSAFE.test(value)) return DEFAULT_REDIRECT;
  // Only a path: no scheme (`javascript:`, `http:evil`), no authority (`//evil`).
  if (!value.startsWith("/") || value.startsWith("//")) return DEFAULT_REDIRECT;
  const base = options.baseUrl;
  const origin = options.origin ?? PLACEHOLDER_ORIGIN;
  let url: URL;
  try {
    url = new URL(base + value, origin);
  } catch {
    return DEFAULT_REDIRECT;
  }
  if (url.origin !== new URL(origin).origin || url.username || url.password) return DEFAULT_REDIRECT;
  if (base && !url.pathname.startsWith(base + "/")) return DEFAULT_REDIRECT;
  const rest = url.pathname.slice(base.length) + url.search + url.hash;
  // Dot segments can leave an empty first segment (`/.//evil` serialises as `//evil`): that is an authority.
  if (!rest.startsWith("/") || rest.startsWith("//") || UNSAFE.test(rest)) return DEFAULT_REDIRECT;
  // The answer must mean the same thing when parsed again.
  if (new URL(base + rest, origin).href !== url.href) return DEFAULT_REDIRECT;
  return rest;
}
