// This module is browser-compatible.
/**
 * The session in the browser: the token lives in localStorage `jwt` and in the `auth` cookie (for page navigations,
 * images and downloads). Login/logout, renewal on `X-Renew-Token`, and the user claims of the token.
 */
import type { TokenUser, User } from "../lib/types.ts";
import { baseUrl, IS_BROWSER } from "./page.ts";
import { user } from "./state.ts";
import { postLogout, postRenew } from "./api/session.ts";

const STORAGE_KEY = "jwt";

/** The stored token, or "" when logged out. */
export function getToken(): string {
  if (!IS_BROWSER) return "";
  try {
    return localStorage.getItem(STORAGE_KEY) ?? "";
  } catch {
    // Storage can be disabled (privacy mode); the cookie still carries the session for page loads.
    return readCookie("auth");
  }
}

function readCookie(name: string): string {
  const m = document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`));
  return m ? decodeURIComponent(m[1]) : "";
}

function cookieSuffix(): string {
  const secure = location.protocol === "https:" ? "; Secure" : "";
  return `; Path=${baseUrl()}/; SameSite=Strict${secure}`;
}

/** The claims of a token: the `user` object and `exp` (seconds). Throws "token malformed" if not a JWT. */
export function parseToken(token: string): { user: TokenUser; exp: number } {
  const parts = token.split(".");
  if (parts.length !== 3) throw new Error("token malformed");
  const json = atob(parts[1].replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
  const payload = JSON.parse(new TextDecoder().decode(bytes));
  return { user: payload.user, exp: Number(payload.exp) || 0 };
}

/** Stores a new token (storage and cookie) and merges its user claims into the session user. */
export function setToken(token: string): void {
  const claims = parseToken(token);
  try {
    localStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Storage disabled: the cookie alone keeps the session.
  }
  document.cookie = `auth=${token}${cookieSuffix()}`;
  const current = user.value;
  if (current && current.id === claims.user.id) user.value = { ...current, ...claims.user } as User;
}

/** Forgets the session locally (storage, cookie, state). */
export function clearSession(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage disabled: nothing stored.
  }
  document.cookie = `auth=${cookieSuffix()}; Max-Age=0`;
  user.value = null;
}

/** Where the login page is (base-URL aware), with an optional redirect target. */
export function loginUrl(redirect?: string): string {
  return `${baseUrl()}/login${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ""}`;
}

let loggingOut = false;

/** Ends the session on the server (best effort), clears it locally and goes to the login page. */
export async function logout(options: { keepLocation?: boolean } = {}): Promise<void> {
  if (loggingOut) return;
  loggingOut = true;
  const token = getToken();
  if (token) await postLogout(token);
  clearSession();
  const here = location.pathname.slice(baseUrl().length) + location.search;
  location.assign(loginUrl(options.keepLocation ? here : undefined));
}

let renewing: Promise<void> | null = null;
let renewAgain = false;

/**
 * Exchanges the token for a fresh one (once at a time); failures leave the old token in place. A request made while
 * one is in flight runs once more after it: the first answer may carry claims from before the latest change (two
 * quick view-mode clicks), and adopting it last would undo that change.
 */
export function renewToken(): Promise<void> {
  if (renewing) {
    renewAgain = true;
    return renewing;
  }
  const token = getToken();
  if (!token) return Promise.resolve();
  renewing = postRenew(token)
    .then((fresh) => {
      if (fresh) setToken(fresh);
    })
    // A malformed token from the server leaves the old one in place, like a failed renewal.
    .catch(() => {})
    .finally(() => {
      renewing = null;
      if (renewAgain) {
        renewAgain = false;
        void renewToken();
      }
    });
  return renewing;
}

let started = false;

/** At page start: adopt the cookie's token if storage lacks it, then renew it. */
export function startSession(pageUser: User | null): void {
  if (started || !IS_BROWSER || !pageUser) return;
  started = true;
  let token = getToken();
  const cookie = readCookie("auth");
  if (!token || (cookie && cookie !== token)) {
    // The page was rendered for the cookie's session, so that is the session this tab uses.
    token = cookie;
    if (token) {
      try {
        localStorage.setItem(STORAGE_KEY, token);
      } catch {
        // Storage disabled.
      }
    }
  }
  if (!token) return;
  // A stored token is renewed at start whatever its age (it also picks up permission changes made elsewhere).
  void renewToken();
}
