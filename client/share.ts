// This module is browser-compatible.
/**
 * Share links in the browser: the authenticated share API (dialog, management page) and the public share API
 * (the /share page, no login; the password travels URL-encoded in `X-SHARE-PASSWORD`).
 */
import type { Resource, Share } from "../lib/types.ts";
import { ApiError, apiFetch, encodePath } from "./api.ts";
import { baseUrl } from "./page.ts";
import { showError, showSuccess } from "./toasts.ts";

/** Share duration units; the server treats anything else as hours. */
export const SHARE_UNITS = ["seconds", "minutes", "hours", "days"] as const;
/** One of SHARE_UNITS. */
export type ShareUnit = typeof SHARE_UNITS[number];
/** Largest duration number the form accepts. */
export const MAX_SHARE_DURATION = 2147483647;
/** Folder items shown at first on the public page, and added per "+N" click. */
export const SHARE_PAGE_SIZE = 100;

/** What the share dialog sends. */
export interface NewShare {
  /** Duration number as typed ("" = permanent). */
  expires: string;
  unit: ShareUnit;
  password: string;
  custom: boolean;
  customLink: string;
  /** Folders only: an upload-only link ("file drop"). */
  drop?: boolean;
  /** Drop links: largest file in MB as typed ("" = no limit). */
  maxFileSizeMb?: string;
  /** Drop links: number of files as typed ("" = no limit). */
  maxFiles?: string;
}

/** The links of one path (own links; admins see every owner's). */
export async function listSharesOf(path: string): Promise<Share[]> {
  return await (await apiFetch(`/share${encodePath(path)}`)).json() as Share[];
}

/** Every link the user may manage (all users' for admins). */
export async function listAllShares(): Promise<Share[]> {
  return await (await apiFetch("/shares")).json() as Share[];
}

/** The body of POST /api/share: `{}` when nothing is set. */
export function shareBody(form: NewShare): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const password = form.password.trim();
  if (password) body.password = password;
  if (form.expires.trim()) {
    body.expires = String(Math.trunc(Number(form.expires)));
    body.unit = form.unit;
  }
  if (form.custom) {
    body.custom = true;
    body.customLink = form.customLink.trim();
  }
  if (form.drop) {
    body.kind = "drop";
    const mb = Number(form.maxFileSizeMb ?? "");
    if (mb > 0) body.maxFileSize = Math.round(mb * 1024 * 1024);
    const files = Math.trunc(Number(form.maxFiles ?? ""));
    if (files > 0) body.maxFiles = files;
  }
  return body;
}

/** Creates a link. */
export async function createShare(path: string, form: NewShare): Promise<Share> {
  const body = shareBody(form);
  const query = body.expires ? `?expires=${body.expires}&unit=${form.unit}` : "";
  const res = await apiFetch(`/share${encodePath(path)}${query}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  return await res.json() as Share;
}

/** Deletes a link. */
export async function deleteShare(hash: string): Promise<void> {
  await apiFetch(`/share/${encodeURIComponent(hash)}`, { method: "DELETE" });
}

/** A custom link must contain a word character and only URL-safe characters. */
export function isValidCustomLink(link: string): boolean {
  return /^\w[\w.~-]{0,127}$/.test(link.trim());
}

/** The default custom link for an item name: unsafe characters become "-". */
export function defaultCustomLink(name: string): string {
  return name.replace(/[^\w.~-]+/g, "-").replace(/^[^\w]+/, "").slice(0, 128);
}

function origin(): string {
  return typeof location === "undefined" ? "" : location.origin;
}

/** The public page of a link (absolute URL). */
export function shareUrl(hash: string): string {
  return `${origin()}${baseUrl()}/share/${encodeURIComponent(hash)}`;
}

/** The public download URL of an item of a share; `token` unlocks password-protected links. */
export function publicDownloadUrl(
  hash: string,
  path: string,
  options: { token?: string; inline?: boolean; absolute?: boolean } = {},
): string {
  const q: string[] = [];
  if (options.token) q.push(`token=${encodeURIComponent(options.token)}`);
  if (options.inline) q.push("inline=true");
  const rel = `${baseUrl()}/api/public/dl/${encodeURIComponent(hash)}${encodePath(path)}`;
  return `${options.absolute ? origin() : ""}${rel}${q.length ? "?" + q.join("&") : ""}`;
}

/** The public archive URL of some items of a shared folder (`paths` relative to the share root). */
export function publicArchiveUrl(
  hash: string,
  paths: string[],
  options: { token?: string; algo?: string } = {},
): string {
  const q = [`files=${encodeURIComponent(paths.map(encodePath).join(","))}`, `algo=${options.algo ?? "zip"}`];
  if (options.token) q.push(`token=${encodeURIComponent(options.token)}`);
  return `${baseUrl()}/api/public/dl/${encodeURIComponent(hash)}/?${q.join("&")}`;
}

/** A public share answer: the resource plus the bypass token of password-protected links. */
export type PublicResource = Resource & { token?: string };

/** GET /api/public/share: throws ApiError (401 = password needed or wrong). */
export async function fetchPublicShare(hash: string, sub: string, password: string): Promise<PublicResource> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl()}/api/public/share/${encodeURIComponent(hash)}${encodePath(sub)}`, {
      headers: { "X-SHARE-PASSWORD": encodeURIComponent(password) },
    });
  } catch {
    throw new ApiError(0, "000 No connection");
  }
  if (!res.ok) throw new ApiError(res.status, (await res.text().catch(() => "")).trim() || `${res.status}`);
  return await res.json() as PublicResource;
}

/** The text of a shared file from its public inline URL (for the read-only text and Markdown preview). */
export async function fetchPublicText(inlineUrl: string, signal?: AbortSignal): Promise<string> {
  let res: Response;
  try {
    res = await fetch(inlineUrl, { signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError(0, "000 No connection");
  }
  if (!res.ok) throw new ApiError(res.status, (await res.text().catch(() => "")).trim() || `${res.status}`);
  return await res.text();
}

/** Copies text to the clipboard (falls back to a hidden textarea outside secure contexts). */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Not a secure context, or permission refused: try the old way.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy failed");
}

/** Unix seconds of a link's expiry as an ISO date (for relative formatting); null for permanent links. */
export function expiryIso(expire: number): string | null {
  return expire ? new Date(expire * 1000).toISOString() : null;
}

/** Copies a share's public link to the clipboard and says so in a toast (or shows the error). */
export async function copyShareLink(hash: string, copiedMessage: string): Promise<void> {
  try {
    await copyText(shareUrl(hash));
    showSuccess(copiedMessage);
  } catch (err) {
    showError(err);
  }
}

/** Links in display order: by path, then newest first (creation time, else expiry), then by hash. */
export function sortShares(list: readonly Share[]): Share[] {
  const when = (s: Share) => s.created ?? s.expire;
  return [...list].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : when(b) - when(a) || (a.hash < b.hash ? -1 : 1)
  );
}
