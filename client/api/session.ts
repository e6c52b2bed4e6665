// This module is browser-compatible.
/**
 * The session calls: login, sign-up, logout and renewal. Logout and renewal send the token they are given (the
 * session module owns it) and never log out on a 401 themselves.
 */
import { apiFetch, apiUrl, request } from "./http.ts";

/** Logs in; returns the token. `otp` is the two-factor code (or a recovery code) when the server asked for one. */
export async function login(username: string, password: string, recaptcha = "", otp = ""): Promise<string> {
  const res = await apiFetch("/login", {
    method: "POST",
    json: otp ? { username, password, recaptcha, otp } : { username, password, recaptcha },
    noLogout: true,
  });
  return (await res.text()).trim();
}

/** Creates an account (self sign-up). */
export async function signup(username: string, password: string): Promise<void> {
  await apiFetch("/signup", { method: "POST", json: { username, password }, noLogout: true });
}

/** Ends a session on the server; failures are ignored (the session is forgotten locally anyway). */
export async function postLogout(token: string): Promise<void> {
  await request(apiUrl("/logout"), { method: "POST", headers: { "X-Auth": token }, anonymous: true })
    .then((res) => res.body?.cancel(), () => undefined);
}

/** Exchanges a token for a fresh one; null when the server refuses or cannot be reached. */
export async function postRenew(token: string): Promise<string | null> {
  try {
    const res = await request(apiUrl("/renew"), {
      method: "POST",
      headers: { "X-Auth": token },
      anonymous: true,
    });
    return (await res.text()).trim();
  } catch {
    // A failed renewal keeps the old token; the next answer asking for renewal tries again.
    return null;
  }
}
