// This module is browser-compatible.
/**
 * Fetching a resource for the files page. client/listing_worker.ts (a worker entry must sit in client/ for the
 * build) fetches it, parses it and puts it in display order off the main thread, and hands the items back as
 * columns (client/listing_columns.ts), which are built into items here a few milliseconds at a time: `onFirst`
 * gets the folder with its first items (enough to paint the first screen) before the rest. The files page's
 * first load gets its first screen from the server (islands/FileBrowser.tsx) and only the rest from here.
 */
import type { Resource } from "../../lib/types.ts";
import { apiFetch, apiUrl, readJson, sessionHooks } from "./http.ts";
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
/** Items are built for this long at a time, ms; then other tasks (input, paint) get their turn. */
const SLICE_MS = 8;

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

/** The items of `c`, built a slice at a time; `onFirst` gets the first slice when more follow. */
async function build(head: Resource, c: ListingColumns, onFirst?: (r: Resource) => void): Promise<Resource> {
  const items: Resource[] = [];
  for (;;) {
    const stop = performance.now() + SLICE_MS;
    while (items.length < c.count && performance.now() < stop) {
      appendItems(items, c, { to: Math.min(c.count, items.length + 500) });
    }
    if (items.length === c.count) return { ...head, items };
    onFirst?.({ ...head, items: items.slice() });
    onFirst = undefined;
    await new Promise((resolve) => setTimeout(resolve));
  }
}

function inWorker(w: Worker, req: Omit<ParseRequest, "id">): Promise<ParseReply> {
  const id = nextId++;
  w.postMessage({ ...req, id }, req.buffer ? [req.buffer] : []);
  return new Promise((resolve, reject) =>
    pending.set(id, (reply) => {
      pending.delete(id);
      const hooks = sessionHooks();
      if (reply.renew) void hooks.renewToken();
      if (reply.status === 401 && req.token) void hooks.logout({ keepLocation: true });
      if (reply.error === undefined) resolve(reply);
      else reject(new ApiError(reply.status ?? 500, reply.error || NO_CONNECTION));
    })
  );
}

/** Options of loadResource. */
export interface LoadOptions {
  /** Gets the folder with its first items while the rest is still being built (big folders only). */
  onFirst?: (r: Resource) => void;
  /**
   * Use the cookie and the main thread: the first load of a page whose folder the server preloaded with
   * `<link rel="preload">` (only folders of at most PRELOAD_MAX_ITEMS, islands/files/use_window.ts).
   */
  preloaded?: boolean;
}

/** GETs a resource (a folder's items in display order: folders first), parsed off the main thread; big listings are reported early through `onFirst`. */
export async function loadResource(path: string, options: LoadOptions = {}): Promise<Resource> {
  const w = getWorker();
  if (!w) {
    // The order code is only needed here without a worker (which hands the items over in display order).
    const res = await apiFetch(resourceApiPath(path), { cookieAuth: options.preloaded });
    return (await import("../display_order.ts")).inDisplayOrder(await readJson<Resource>(res));
  }
  // A big folder is fetched by the worker itself: its body never touches the page's main thread. The page's
  // first load of a smaller one uses the answer the server preloaded, and moves its bytes to the worker.
  const reply = options.preloaded
    ? await inWorker(w, {
      buffer: await (await apiFetch(resourceApiPath(path), { cookieAuth: true })).arrayBuffer(),
    })
    : await inWorker(w, { url: apiUrl(resourceApiPath(path)), token: sessionHooks().getToken() });
  return reply.columns ? await build(reply.head!, reply.columns, options.onFirst) : reply.head!;
}
