// This module is browser-compatible.
/**
 * Fetching a resource for the files page. client/listing_worker.ts (a worker entry must sit in client/ for the
 * build) fetches it, parses it and puts it in display order off the main thread, and hands the items back as
 * columns (client/listing_columns.ts), which are built into items here a few milliseconds at a time (the
 * items of a 100k folder in about 25 ms, so the folder shows once whole). The files page's first load gets its
 * first screen from the server (islands/FileBrowser.tsx) and only the rest from here.
 */
import type { Resource } from "../../lib/types.ts";
import { apiFetch, apiUrl, readJson, sessionToken, settleSession } from "./http.ts";
import { ApiError, NO_CONNECTION } from "./errors.ts";
import { resourceApiPath } from "./resources.ts";
import { baseUrl } from "../page.ts";
import type { ParseReply, ParseRequest } from "../listing_worker.ts";
import type { ListingColumns } from "../listing_columns.ts";
import { appendItems } from "../listing_items.ts";

let worker: Worker | null = null;
/** The worker could not start (blocked, failed to load): load on the main thread from then on. */
let noWorker = typeof Worker === "undefined";
let nextId = 1;
const pending = new Map<number, (reply: ParseReply) => void>();

function getWorker(): Worker | null {
  if (worker || noWorker) return worker;
  try {
    worker = new Worker(`${baseUrl()}/_islands/listing_worker.js`, { type: "module" });
    worker.onmessage = (e: MessageEvent<ParseReply>) => pending.get(e.data.id)?.(e.data);
    worker.onerror = () => {
      noWorker = true;
      worker = null;
      for (const [id, done] of pending) done({ id, error: "listing worker failed" });
    };
  } catch {
    noWorker = true;
  }
  return worker;
}

/** The folder `head` with the items of `c`, built a slice at a time (100k take some 25 ms in all). */
async function build(head: Resource, c: ListingColumns): Promise<Resource> {
  const items: Resource[] = [];
  while (items.length < c.count) {
    if (items.length) await new Promise((resolve) => setTimeout(resolve));
    // Items are built for 8 ms at a time; then other tasks (input, paint) get their turn.
    const stop = performance.now() + 8;
    do appendItems(items, c, { to: items.length + 500 }); while (
      items.length < c.count && performance.now() < stop
    );
  }
  return { ...head, items };
}

/** The resource the worker fetches or reads for `req`. */
function inWorker(w: Worker, req: Omit<ParseRequest, "id">): Promise<Resource> {
  const id = nextId++;
  w.postMessage({ ...req, id }, req.buffer ? [req.buffer] : []);
  return new Promise((resolve, reject) =>
    pending.set(id, (reply) => {
      pending.delete(id);
      settleSession(req.token ?? "", reply.status ?? 0, !!reply.renew);
      if (reply.error !== undefined) reject(new ApiError(reply.status ?? 500, reply.error || NO_CONNECTION));
      else resolve(reply.columns ? build(reply.head!, reply.columns) : reply.head!);
    })
  );
}

/** Options of loadResource. */
export interface LoadOptions {
  /**
   * Use the cookie and the main thread: the first load of a page whose folder the server preloaded with
   * `<link rel="preload">` (only folders of at most PRELOAD_MAX_ITEMS, islands/files/use_window.ts).
   */
  preloaded?: boolean;
}

/** GETs a resource (a folder's items in display order: folders first), fetched and parsed off the main thread. */
export async function loadResource(path: string, options: LoadOptions = {}): Promise<Resource> {
  const w = getWorker();
  const apiPath = resourceApiPath(path);
  // Fetched by the worker itself (all but a page's first load): the body never touches the main thread.
  if (w && !options.preloaded) return await inWorker(w, { url: apiUrl(apiPath), token: sessionToken() });
  const res = await apiFetch(apiPath, { cookieAuth: options.preloaded });
  // The order code is only needed here without a worker (which hands the items over in display order).
  if (!w) return (await import("../display_order.ts")).inDisplayOrder(await readJson<Resource>(res));
  // The answer the server preloaded (a small folder: islands/files/use_window.ts): its bytes move to the worker.
  return await inWorker(w, { buffer: await res.arrayBuffer() });
}
