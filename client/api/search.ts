// This module is browser-compatible.
/** Search: `GET /api/search<dir>/?query=`, an NDJSON stream of hits (empty lines are keep-alives). */
import type { SearchHit, SearchTruncation } from "../../lib/types.ts";
import { encodePath } from "../../lib/url_path.ts";
import { apiFetch } from "./http.ts";
import { ndjsonOf } from "./ndjson.ts";

/**
 * Runs a search under a folder and calls `onHit` for each hit as its line arrives, and `onTruncated` when the
 * answer says that folders too deep to read were not searched; resolves when it ends.
 */
export async function streamSearch(
  base: string,
  query: string,
  options: { onHit: (hit: SearchHit) => void; onTruncated?: (folders: number) => void; signal?: AbortSignal },
): Promise<void> {
  const dir = encodePath(base.endsWith("/") ? base : base + "/");
  const res = await apiFetch(`/search${dir}?query=${encodeURIComponent(query)}`, { signal: options.signal });
  for await (const line of ndjsonOf<SearchHit | SearchTruncation>(res)) {
    if ("truncated" in line) options.onTruncated?.(line.folders);
    else options.onHit(line);
  }
}
