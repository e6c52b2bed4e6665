// This module is browser-compatible.
/**
 * The one fetch wrapper of the browser. Every call of the API package goes through `request()`: it prefixes the
 * base URL, sends `X-Auth` (unless asked not to), turns a network failure into `ApiError` status 0 and any non-2xx
 * answer into `ApiError { status, message }` (the plain-text body of the API's errors), logs out on a 401 of an
 * authenticated call and renews the token when the server asks with `X-Renew-Token: true`. `apiJson` and
 * `apiText` read the answer; islands never touch a `Response`.
 */
import { baseUrl } from "../page.ts";
import { getToken, logout, renewToken } from "../session.ts";
import { ApiError, NO_CONNECTION } from "./errors.ts";

export { ApiError, NO_CONNECTION };

/** Options of a request. */
export interface RequestOptions extends RequestInit {
  /** Do not log out on 401 (login, signup, public calls). */
  noLogout?: boolean;
  /**
   * Authenticate with the `auth` cookie only (GET): the request then matches a `<link rel="preload">` the page
   * started before any script ran.
   */
  cookieAuth?: boolean;
  /** Send no `X-Auth` and never log out: public share pages, drop links. */
  anonymous?: boolean;
  /** A JSON body: serialised, with `Content-Type: application/json`. */
  json?: unknown;
}

/** The session hooks of the wrapper; tests replace them with {@link setSessionHooks}. */
export interface SessionHooks {
  getToken(): string;
  logout(options: { keepLocation?: boolean }): Promise<void>;
  renewToken(): Promise<void>;
}

let hooks: SessionHooks = { getToken, logout, renewToken };

/** Replaces the session hooks (tests); returns the previous ones. */
export function setSessionHooks(next: SessionHooks): SessionHooks {
  const previous = hooks;
  hooks = next;
  return previous;
}

/** The session's token ("" when logged out). */
export function sessionToken(): string {
  return hooks.getToken();
}

/**
 * The session's part of an answer to a call sent with `token` (none: nothing to do): renew the token when the
 * server asked, log out on a 401 (`status` 0 for a call that must not log out). The listing worker's answers
 * come here too.
 */
export function settleSession(token: string, status: number, renew: boolean): void {
  if (!token) return;
  if (renew) void hooks.renewToken();
  if (status === 401) void hooks.logout({ keepLocation: true });
}

/** The absolute-path URL of an API path: `/resources/a` → `<base>/api/resources/a`. */
export function apiUrl(path: string): string {
  return `${baseUrl()}/api${path}`;
}

/**
 * Sends a request to `url` (a full URL or a path of the app, base URL included) and returns the 2xx response, or
 * throws ApiError. An abort passes through as the AbortError it is, so callers can tell it from a failure.
 */
export async function request(url: string, options: RequestOptions = {}): Promise<Response> {
  const { noLogout, cookieAuth, anonymous, json, ...init } = options;
  const headers = new Headers(init.headers);
  const token = anonymous ? "" : hooks.getToken();
  if (token && !cookieAuth) headers.set("X-Auth", token);
  if (json !== undefined) {
    headers.set("Content-Type", "application/json");
    init.body = JSON.stringify(json);
  }
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers });
  } catch (err) {
    if (init.signal?.aborted) throw err;
    throw new ApiError(0, NO_CONNECTION);
  }
  settleSession(token, noLogout ? 0 : res.status, res.headers.get("X-Renew-Token") === "true");
  if (!res.ok) {
    const text = await res.text().catch(() => "");
    throw new ApiError(res.status, text.trim() || `${res.status}`, res.headers);
  }
  return res;
}

/** Sends a request to `/api<path>` and returns the response, or throws ApiError. */
export function apiFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  return request(apiUrl(path), options);
}

/** Sends a request to `/api<path>` and parses the JSON answer. */
export async function apiJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return await readJson<T>(await apiFetch(path, options));
}

/** Sends a request to `/api<path>` and returns the text answer. */
export async function apiText(path: string, options: RequestOptions = {}): Promise<string> {
  return await (await apiFetch(path, options)).text();
}

/** Sends a request to `/api<path>` whose answer is not needed (the body is released). */
export async function apiSend(path: string, options: RequestOptions = {}): Promise<Response> {
  const res = await apiFetch(path, options);
  await res.body?.cancel();
  return res;
}

/** The JSON body of a 2xx answer; a body that is not JSON is a 502 (the server or a proxy answered oddly). */
export async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(502, `${res.status} answer is not JSON`, res.headers);
  }
}
