// This module is browser-compatible.
/**
 * Share links in the browser: the share dialog's form rules, the clipboard and the display order. The calls
 * themselves are in client/api/shares.ts and client/api/public_share.ts.
 */
import type { Share } from "../lib/types.ts";
import {
  defaultCustomLink as proposeCustomLink,
  isValidCustomLink as isValidLink,
} from "../lib/share_link.ts";
import { postShare, shareUrl } from "./api/mod.ts";
import { showError, showSuccess } from "./toasts.ts";
import { baseUrl } from "./page.ts";
import { encodePath } from "../lib/url_path.ts";
import { decodePathLenient, pathBelow } from "../lib/request_path.ts";

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
export function createShare(path: string, form: NewShare): Promise<Share> {
  return postShare(path, shareBody(form));
}

/** A custom link as typed is acceptable (the server's rule, lib/share_link.ts, on the trimmed text). */
export function isValidCustomLink(link: string): boolean {
  return isValidLink(link.trim());
}

/** The default custom link for an item name: unsafe characters become "-". */
export function defaultCustomLink(name: string): string {
  return proposeCustomLink(name);
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

/** The URL of a public share page at `sub` (a decoded path inside the share). */
export function sharePageUrl(hash: string, sub: string): string {
  return `${baseUrl()}/share/${encodeURIComponent(hash)}${sub === "/" ? "" : encodePath(sub)}`;
}

/** The path inside the share the address bar shows (segments decoded; a malformed escape stays as written). */
export function shareSubOfLocation(hash: string): string {
  return decodePathLenient(
    pathBelow(location.pathname, `${baseUrl()}/share/${encodeURIComponent(hash)}`) ?? "/",
  );
}
