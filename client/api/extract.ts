// This module is browser-compatible.
/** Extraction: `POST /api/extract<path>`, an NDJSON stream of progress events. */
import type { ExtractConflict } from "../../lib/extract/formats.ts";
import type { ExtractEvent } from "../../lib/types.ts";
import { encodePath } from "../../lib/url_path.ts";
import { apiFetch } from "./http.ts";
import { ndjsonOf } from "./ndjson.ts";

/** Runs an extraction and calls `onEvent` for every NDJSON line; resolves with the last one. */
export async function extractArchive(
  path: string,
  options: {
    destination: string;
    conflict: ExtractConflict;
    onEvent?: (event: ExtractEvent) => void;
    signal?: AbortSignal;
  },
): Promise<ExtractEvent | null> {
  const query = new URLSearchParams({ destination: options.destination, conflict: options.conflict });
  const res = await apiFetch(`/extract${encodePath(path)}?${query}`, {
    method: "POST",
    signal: options.signal,
  });
  let last: ExtractEvent | null = null;
  for await (const event of ndjsonOf<ExtractEvent>(res)) {
    last = event;
    options.onEvent?.(event);
  }
  return last;
}
