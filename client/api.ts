// This module is browser-compatible.
/**
 * The typed API client. Every call sends `X-Auth`; a non-2xx answer becomes `ApiError { status, message }` and a
 * network failure status 0. A 401 logs out, `X-Renew-Token: true` renews the token in the background.
 */
import type { AuditEntry, AuditQuery, Resource, TrashItem, Usage, User } from "../lib/types.ts";
import { baseUrl } from "./page.ts";
import { getToken, logout, renewToken } from "./session.ts";

/** A failed API call: the HTTP status (0 = no connection) and the response text. */
export class ApiError extends Error {
  readonly status: number;
  /** The response headers (none for a network failure). */
  readonly headers: Headers;
  constructor(status: number, message: string, headers: Headers = new Headers()) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.headers = headers;
  }
}

/** Options of a raw API request. */
export interface RequestOptions extends RequestInit {
  /** Do not log out on 401 (login, signup, public calls). */
  noLogout?: boolean;
  /**
   * Authenticate with the `auth` cookie only (GET): the request then matches a `<link rel="preload">` the page
   * started before any script ran.
   */
  cookieAuth?: boolean;
}

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

/** Sends a request to `/api<path>` and returns the response, or throws ApiError. */
export async function apiFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  const token = getToken();
  if (token && !options.cookieAuth) headers.set("X-Auth", token);
  let res: Response;
  try {
    res = await fetch(`${baseUrl()}/api${path}`, { ...options, headers });
  } catch {
    throw new ApiError(0, "000 No connection");
  }
  if (res.headers.get("X-Renew-Token") === "true") void renewToken();
  if (res.status === 401 && !options.noLogout && token) {
    void logout({ keepLocation: true });
  }
  if (!res.ok) {
    const text = await res.text().catch(() => "");
    throw new ApiError(res.status, text.trim() || `${res.status}`, res.headers);
  }
  return res;
}

/** GET a resource: a folder with its items, or a file. `checksum` asks for one hash of a file. */
export async function getResource(path: string, options: { checksum?: string } = {}): Promise<Resource> {
  const query = options.checksum ? `?checksum=${encodeURIComponent(options.checksum)}` : "";
  const res = await apiFetch(`/resources${encodePath(path)}${query}`);
  return await res.json() as Resource;
}

/** Creates a folder (and missing parents). */
export async function createFolder(path: string): Promise<void> {
  await apiFetch(`/resources${encodePath(path.replace(/\/*$/, "/"))}`, { method: "POST" });
}

/** Creates an empty file; 409 when it exists. */
export async function createFile(path: string): Promise<void> {
  await apiFetch(`/resources${encodePath(path)}?override=false`, { method: "POST", body: "" });
}

/** Deletes a file or folder: into the trash, or for good with `permanent`. */
export async function deleteResource(path: string, options: { permanent?: boolean } = {}): Promise<void> {
  const query = options.permanent ? "?permanent=true" : "";
  await apiFetch(`/resources${encodePath(path)}${query}`, { method: "DELETE" });
}

/** The query string of audit filters (empty ones left out), with extra parameters. */
export function auditSearch(filter: AuditQuery, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filter, ...extra })) {
    if (v !== undefined && v !== "") q.set(k, String(v));
  }
  return q.toString();
}

/** One page of the audit log, newest first (admins); `cursor` continues where the last page ended. */
export async function listAudit(
  filter: AuditQuery,
  cursor?: string,
): Promise<{ entries: AuditEntry[]; cursor: string | null }> {
  const extra: Record<string, string> = cursor ? { cursor, limit: "100" } : { limit: "100" };
  return await (await apiFetch(`/audit?${auditSearch(filter, extra)}`)).json();
}

/** The user's trashed items, newest first. */
export async function listTrash(): Promise<TrashItem[]> {
  return await (await apiFetch("/trash")).json() as TrashItem[];
}

/** Restores a trashed item (409 when its place is taken, unless `override` or `rename`). */
export async function restoreTrashItem(id: string, options: TransferOptions = {}): Promise<void> {
  const query = `override=${!!options.override}&rename=${!!options.rename}`;
  await apiFetch(`/trash/${encodeURIComponent(id)}?${query}`, { method: "POST" });
}

/** Removes one trashed item for good, or all of them without an id. */
export async function purgeTrashItems(id?: string): Promise<void> {
  await apiFetch(id ? `/trash/${encodeURIComponent(id)}` : "/trash", { method: "DELETE" });
}

/** Options of copy/move. */
export interface TransferOptions {
  /** Replace an existing destination. */
  override?: boolean;
  /** Pick a free name `name(1).ext` when the destination exists. */
  rename?: boolean;
}

async function patch(action: "copy" | "rename", from: string, to: string, options: TransferOptions) {
  // The server decodes `destination` twice, so the segment-encoded path is encoded once more.
  const query = `action=${action}&destination=${encodeURIComponent(encodePath(to))}` +
    `&override=${!!options.override}&rename=${!!options.rename}`;
  await apiFetch(`/resources${encodePath(from)}?${query}`, { method: "PATCH" });
}

/** Copies `from` to the full destination path `to`. */
export function copyResource(from: string, to: string, options: TransferOptions = {}): Promise<void> {
  return patch("copy", from, to, options);
}

/** Moves or renames `from` to the full destination path `to`. */
export function moveResource(from: string, to: string, options: TransferOptions = {}): Promise<void> {
  return patch("rename", from, to, options);
}

/** Disk usage of the filesystem holding a folder. */
export async function getUsage(path: string): Promise<Usage> {
  const res = await apiFetch(`/usage${encodePath(path.replace(/\/*$/, "/"))}`);
  return await res.json() as Usage;
}

/** Saves some fields of a user (`which` names them), e.g. `["viewMode"]`. */
export async function updateUser(id: number, which: string[], data: Partial<User>): Promise<void> {
  await apiFetch(`/users/${id}`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ what: "user", which, data: { id, ...data } }),
  });
}

/** Logs in; returns the token. `otp` is the two-factor code (or a recovery code) when the server asked for one. */
export async function login(username: string, password: string, recaptcha = "", otp = ""): Promise<string> {
  const res = await apiFetch("/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(otp ? { username, password, recaptcha, otp } : { username, password, recaptcha }),
    noLogout: true,
  });
  return (await res.text()).trim();
}

/** Creates an account (self sign-up). */
export async function signup(username: string, password: string): Promise<void> {
  await apiFetch("/signup", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
    noLogout: true,
  });
}

/** URL of a file's content (download, or `inline` for viewing); authenticated by the `auth` cookie. */
export function rawUrl(path: string, options: { inline?: boolean } = {}): string {
  return `${baseUrl()}/api/raw${encodePath(path)}${options.inline ? "?inline=true" : ""}`;
}

/** URL of an archive of some entries of a folder (`names` relative to it), or of the folder itself. */
export function archiveUrl(dir: string, names: string[], algo: string): string {
  const folder = encodePath(dir.replace(/\/*$/, "/"));
  const files = names.length ? `files=${encodeURIComponent(names.map(encodePath).join(","))}&` : "";
  return `${baseUrl()}/api/raw${folder}?${files}algo=${encodeURIComponent(algo)}`;
}

/** URL of an image thumbnail; `modified` busts caches when the file changes. */
export function thumbUrl(item: Pick<Resource, "path" | "modified">): string {
  return `${baseUrl()}/api/preview/thumb${encodePath(item.path)}?inline=true&key=${
    Date.parse(item.modified) || 0
  }`;
}

/** The files-page URL of a vpath (folders end with "/"). */
export function filesUrl(path: string, options: { isDir?: boolean } = {}): string {
  const p = options.isDir && !path.endsWith("/") ? `${path}/` : path;
  return `${baseUrl()}/files${encodePath(p)}`;
}
