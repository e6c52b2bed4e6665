// This module is browser-compatible.
/**
 * The public side of share links (no login): `/api/public/share` (listing), `/api/public/dl` (downloads, archives)
 * and `/api/public/tus` (the limits of a drop link). The password travels URL-encoded in `X-SHARE-PASSWORD`.
 */
import type { DropInfo } from "../../lib/drop.ts";
import type { Resource } from "../../lib/types.ts";
import { encodePath } from "../../lib/url_path.ts";
import { baseUrl } from "../page.ts";
import { ApiError, apiUrl, readJson, request } from "./http.ts";

/** A public share answer: the resource plus the bypass token of password-protected links. */
export type PublicResource = Resource & { token?: string };

/** GET /api/public/tus/<hash>: what the drop page shows (the server's type). */
export type { DropInfo };

/** A public share answer, or the limits of a drop link (whose listing answers 404). */
export type ShareOrDrop = PublicResource & { drop?: DropInfo };

function origin(): string {
  return typeof location === "undefined" ? "" : location.origin;
}

const passwordHeader = (password: string) => ({ "X-SHARE-PASSWORD": encodeURIComponent(password) });

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

/** The tus endpoint of a drop link, or of one file dropped into it. */
export function dropUrl(hash: string, name = ""): string {
  return apiUrl(`/public/tus/${encodeURIComponent(hash)}${name ? "/" + encodeURIComponent(name) : ""}`);
}

/** GET /api/public/share: throws ApiError (401 = password needed or wrong). */
export async function fetchPublicShare(hash: string, sub: string, password: string): Promise<PublicResource> {
  const res = await request(apiUrl(`/public/share/${encodeURIComponent(hash)}${encodePath(sub)}`), {
    headers: passwordHeader(password),
    anonymous: true,
  });
  return await readJson<PublicResource>(res);
}

/** The text of a shared file from its public inline URL (for the read-only text and Markdown preview). */
export async function fetchPublicText(inlineUrl: string, signal?: AbortSignal): Promise<string> {
  return await (await request(inlineUrl, { signal, anonymous: true })).text();
}

/** The share at `sub`, or for a drop link its limits; throws ApiError (401 = password needed or wrong). */
export async function fetchShareOrDrop(hash: string, sub: string, password: string): Promise<ShareOrDrop> {
  try {
    return await fetchPublicShare(hash, sub, password);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404 || sub !== "/") throw err;
  }
  let drop: DropInfo;
  try {
    drop = await readJson<DropInfo>(
      await request(dropUrl(hash), { headers: passwordHeader(password), anonymous: true }),
    );
  } catch (err) {
    // Whatever a drop link refuses, the visitor asked for a share that is not there.
    if (err instanceof ApiError && err.status !== 0) throw new ApiError(404, "404 Not Found");
    throw err;
  }
  return { drop, name: drop.name, path: "/", isDir: true } as ShareOrDrop;
}
