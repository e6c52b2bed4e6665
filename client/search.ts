// This module is browser-compatible.
/**
 * Search in the browser: builds the query (type filters as `type:<w>`), streams the NDJSON answer of
 * `GET /api/search<dir>/?query=` (client/api/search.ts) and hands each hit over as soon as its line arrives (empty lines are keep-alives).
 */
import type { SearchHit } from "../lib/types.ts";
import { streamSearch } from "./api/search.ts";

/** The type filters of the overlay: the query word and the translation key of its label. */
export const SEARCH_TYPES = [
  { word: "image", labelKey: "search.images" },
  { word: "audio", labelKey: "search.music" },
  { word: "pdf", labelKey: "search.pdf" },
  { word: "video", labelKey: "search.video" },
] as const;

/** Results shown at first, and added each time the list is scrolled near its end. */
export const SEARCH_PAGE = 50;
/** "Near the end" of the result list, in pixels. */
export const SEARCH_MORE_THRESHOLD_PX = 100;

/** The query sent for a text and an optional type filter; null when there is nothing to search for. */
export function buildQuery(text: string, type: string | null): string | null {
  const trimmed = text.trim();
  if (!trimmed && !type) return null;
  return type ? `type:${type}${trimmed ? " " + trimmed : ""}` : trimmed;
}

/** A search hit with the full vpath of the match. */
export interface SearchResult extends SearchHit {
  /** vpath from the user's root: the base folder joined with the relative path (folders end with "/"). */
  fullPath: string;
}

/** The full vpath of a hit found under `base` (a folder vpath). */
export function resultPath(base: string, hit: SearchHit): string {
  const dir = base.endsWith("/") ? base : base + "/";
  const p = dir + hit.path.replace(/^\/+/, "");
  return hit.dir && !p.endsWith("/") ? p + "/" : p;
}

/**
 * Runs a search under a folder and calls `onResult` for each hit as it arrives (and `onTruncated` when folders
 * too deep to read were skipped); resolves when the search ends.
 */
export async function search(
  base: string,
  query: string,
  options: {
    onResult: (r: SearchResult) => void;
    onTruncated?: (folders: number) => void;
    signal?: AbortSignal;
  },
): Promise<void> {
  await streamSearch(base, query, {
    signal: options.signal,
    onHit: (hit) => options.onResult({ ...hit, fullPath: resultPath(base, hit) }),
    onTruncated: options.onTruncated,
  });
}
