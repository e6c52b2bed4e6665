// This module is browser-compatible.
/**
 * Web worker: fetches a listing (or reads the bytes the page hands over), parses it, puts it in display order
 * (client/display_order.ts) and hands it back as columns (client/listing_columns.ts), so a 100k-item folder
 * never blocks the page for a long task: its 18 MB body, a JSON.parse of ~70 ms and the cloning of 100k
 * objects all stay here.
 */
import type { Resource } from "../lib/types.ts";
import { displayOrder } from "./display_order.ts";
import { columnBuffers, type ListingColumns, toColumns } from "./listing_columns.ts";
import { fetchListing, type ListingAnswer } from "./api/listing_fetch.ts";

/** A request: a URL to fetch with a token (`X-Auth`; "" for the cookie), or the bytes of an answer. */
export interface ParseRequest {
  id: number;
  url?: string;
  token?: string;
  buffer?: ArrayBuffer;
}

/** The reply: the resource without its items and the items as columns, or the failure (`status`, `error`). */
export interface ParseReply {
  id: number;
  head?: Resource;
  columns?: ListingColumns;
  /** The server asked to renew the token. */
  renew?: boolean;
  /** The HTTP status of a failed request (0: no answer, 502: not JSON); none when the worker failed. */
  status?: number;
  error?: string;
}

const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<ParseRequest>) => void | Promise<void>) | null;
  postMessage(reply: ParseReply, transfer?: Transferable[]): void;
};

async function handle(req: ParseRequest): Promise<void> {
  const { id, url, token, buffer } = req;
  const answer: ListingAnswer = url !== undefined
    ? await fetchListing(url, token ?? "")
    : { ok: true, status: 200, text: new TextDecoder().decode(buffer), renew: false };
  const { renew } = answer;
  if (!answer.ok) {
    scope.postMessage({ id, status: answer.status, error: answer.text, renew });
    return;
  }
  let res: Resource;
  try {
    res = JSON.parse(answer.text);
  } catch {
    scope.postMessage({ id, status: 502, error: `${answer.status} answer is not JSON`, renew });
    return;
  }
  if (!Array.isArray(res.items)) {
    scope.postMessage({ id, head: res, renew });
    return;
  }
  // The page's order is made here too, so the page only builds the items in that order.
  const columns = toColumns(displayOrder(res.items, res.sorting));
  scope.postMessage({ id, head: { ...res, items: [] }, columns, renew }, columnBuffers(columns));
}

scope.onmessage = (e) =>
  // Any failure here still answers, or the page would wait for ever.
  handle(e.data).catch((err) => scope.postMessage({ id: e.data.id, error: String(err) }));
