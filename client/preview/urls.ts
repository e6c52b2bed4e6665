// This module is browser-compatible.
/** URLs the preview loads: resized images, subtitles (content URLs come from client/api/raw.ts). */
import { encodePath } from "../../lib/url_path.ts";
import { baseUrl } from "../page.ts";
import type { Resource } from "../../lib/types.ts";

/** The resized ("big") preview of an image; `modified` in the key busts caches when the file changes. */
export function bigPreviewUrl(item: Pick<Resource, "path" | "modified">): string {
  return `${baseUrl()}/api/preview/big${encodePath(item.path)}?inline=true&key=${
    Date.parse(item.modified) || 0
  }`;
}

/** A subtitle file converted to WebVTT. */
export function subtitleUrl(vpath: string): string {
  return `${baseUrl()}/api/subtitle${encodePath(vpath)}?inline=true`;
}

/** A readable label for a subtitle track: its file name without the video's base name, else the file name. */
export function subtitleLabel(videoName: string, subtitlePath: string): string {
  const file = subtitlePath.split("/").pop() ?? subtitlePath;
  const base = videoName.replace(/\.[^.]*$/, "");
  const stem = file.replace(/\.(vtt|srt|ass|ssa)$/i, "");
  const label = stem.startsWith(base) ? stem.slice(base.length).replace(/^[._\s-]+/, "") : "";
  return label || file;
}
