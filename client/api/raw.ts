// This module is browser-compatible.
/**
 * URLs of file content the browser loads by itself (downloads, `<img>`, `<video>`): `/api/raw`, archives and
 * thumbnails (resized previews and subtitles: client/preview/urls.ts). They are authenticated by the `auth` cookie. `fetchImageBytes` reads one for the
 * TIFF decoder.
 */
import type { Resource } from "../../lib/types.ts";
import { encodePath, folderPath } from "../../lib/url_path.ts";
import { baseUrl } from "../page.ts";
import { request } from "./http.ts";

/** URL of a file's content (download, or `inline` for viewing). */
export function rawUrl(path: string, options: { inline?: boolean } = {}): string {
  return `${baseUrl()}/api/raw${encodePath(path)}${options.inline ? "?inline=true" : ""}`;
}

/** URL of an archive of some entries of a folder (`names` relative to it), or of the folder itself. */
export function archiveUrl(dir: string, names: string[], algo: string): string {
  const folder = encodePath(folderPath(dir));
  const files = names.length ? `files=${encodeURIComponent(names.map(encodePath).join(","))}&` : "";
  return `${baseUrl()}/api/raw${folder}?${files}algo=${encodeURIComponent(algo)}`;
}

/** URL of an image thumbnail; `modified` busts caches when the file changes. */
export function thumbUrl(item: Pick<Resource, "path" | "modified">): string {
  return `${baseUrl()}/api/preview/thumb${encodePath(item.path)}?inline=true&key=${
    Date.parse(item.modified) || 0
  }`;
}

/** The bytes behind a content URL (same origin, cookie authenticated); throws ApiError. */
export async function fetchImageBytes(
  url: string,
  options: { signal?: AbortSignal } = {},
): Promise<ArrayBuffer> {
  const res = await request(url, { signal: options.signal, credentials: "same-origin", anonymous: true });
  return await res.arrayBuffer();
}
