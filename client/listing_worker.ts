// This module is browser-compatible.
/**
 * Web worker: parses a large listing off the main thread, puts it in display order (client/display_order.ts) and
 * hands the items back in slices, so a 100k-item folder never blocks the page for a long task (a single
 * JSON.parse of 18 MB takes ~70 ms).
 */
import type { Resource } from "../lib/types.ts";
import { displayOrder } from "./display_order.ts";

/** Items in the first slice (enough for the first screen), then per slice. */
const FIRST_SLICE = 300;
const SLICE = 1000;

/** A request: the JSON of a resource, as bytes (transferred, not copied). */
export interface ParseRequest {
  id: number;
  buffer: ArrayBuffer;
}

/** A reply: the resource without its items first, then slices of items until `done`. */
export interface ParseReply {
  id: number;
  head?: Resource;
  items?: Resource[];
  total?: number;
  done?: boolean;
  error?: string;
}

const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<ParseRequest>) => void | Promise<void>) | null;
  postMessage(reply: ParseReply): void;
};

scope.onmessage = (e) => {
  const { id, buffer } = e.data;
  let res: Resource;
  try {
    res = JSON.parse(new TextDecoder().decode(buffer));
  } catch (err) {
    scope.postMessage({ id, error: String(err) });
    return;
  }
  if (!Array.isArray(res.items)) {
    scope.postMessage({ id, head: res, total: 0, done: true });
    return;
  }
  // The page's order is made here too, so the main thread only appends the slices as they come.
  const items = displayOrder(res.items, res.sorting);
  const head = { ...res, items: [] };
  scope.postMessage({
    id,
    head,
    items: items.slice(0, FIRST_SLICE),
    total: items.length,
    done: items.length <= FIRST_SLICE,
  });
  for (let i = FIRST_SLICE; i < items.length; i += SLICE) {
    scope.postMessage({ id, items: items.slice(i, i + SLICE), done: i + SLICE >= items.length });
  }
};
