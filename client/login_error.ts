// This module is browser-compatible.
/** The message a failed login or signup shows on the login form. */
import { ApiError } from "./api/errors.ts";
import { errorMessage } from "./toasts.ts";

type Translate = (key: string, vars?: Record<string, string | number>) => string;

/**
 * Login failures say "Wrong credentials", whatever the status, except throttling (429: wait and retry) and a lost
 * connection (status 0), which keep their own messages. In signup mode a taken name (409) and a refused name or
 * password (400, with the server's reason) are explained too.
 */
export function loginFailureMessage(err: unknown, mode: "login" | "signup", t: Translate): string {
  const status = err instanceof ApiError ? err.status : -1;
  if (status === 0 || status === 429) return errorMessage(err);
  if (mode === "signup" && status === 409) return t("login.usernameTaken");
  if (mode === "signup" && status === 400) return errorMessage(err);
  return t("login.wrongCredentials");
}

/** Guest mode logs in by itself unless the visitor comes from the file pages (for example right after a logout). */
export function shouldTryGuest(
  enableGuest: boolean,
  referrer: string,
  origin: string,
  baseUrl: string,
): boolean {
  if (!enableGuest) return false;
  let from: URL;
  try {
    from = new URL(referrer);
  } catch {
    return true;
  }
  if (from.origin !== origin) return true;
  const files = `${baseUrl}/files`;
  return !(from.pathname === files || from.pathname.startsWith(files + "/"));
}
