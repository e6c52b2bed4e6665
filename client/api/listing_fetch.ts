// This module is browser-compatible.
/**
 * The listing request of client/listing_worker.ts: the worker fetches a big folder itself, so its body (18 MB for
 * 100k items) is read and parsed off the page's main thread. The page passes what `request()` in http.ts would
 * send (the URL with the base, the `X-Auth` token) and turns the outcome into what `request()` gives: ApiError,
 * token renewal, logout on a 401 (client/api/listing.ts). This module imports nothing, so the worker's bundle
 * shares no code with the page's.
 */

/** The outcome: the status (0: no answer), the text (the error message of a failure) and the renewal flag. */
export interface ListingAnswer {
  ok: boolean;
  status: number;
  text: string;
  /** The server asked to renew the token (`X-Renew-Token: true`). */
  renew: boolean;
}

/** GETs `url` with `token` as `X-Auth` (none: the cookie). */
export async function fetchListing(url: string, token: string): Promise<ListingAnswer> {
  let res: Response;
  try {
    res = await fetch(url, { headers: token ? { "X-Auth": token } : {} });
  } catch {
    return { ok: false, status: 0, text: "", renew: false };
  }
  const renew = !!token && res.headers.get("X-Renew-Token") === "true";
  const text = await res.text().catch(() => "");
  return { ok: res.ok, status: res.status, text: res.ok ? text : text.trim() || `${res.status}`, renew };
}
