// This module is browser-compatible.
/**
 * Fetching a resource for the files page. Large answers are parsed by client/listing_worker.ts (a worker entry
 * must sit in client/ for the build) and arrive in
 * slices: `onFirst` gets the folder with its first items (enough to paint the first screen) before the rest.
 */
import type { Resource } from "../../lib/types.ts";
import { apiFetch, readJson } from "./http.ts";
import { resourceApiPath } from "./resources.ts";
import { baseUrl, browserPage } from "../page.ts";
import { formatDate, formatRelative, formatSize } from "../../lib/format.ts";
import type { ParseReply, ParseRequest } from "../listing_worker.ts";
import { inDisplayOrder } from "../display_order.ts";

/** Answers smaller than this are parsed on the main thread (cheaper than a round trip to the worker). */
const WORKER_THRESHOLD = 512 * 1024;

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, (reply: ParseReply) => void>();

function getWorker(): Worker | null {
  if (worker || typeof Worker === "undefined") return worker;
  try {
    worker = new Worker(`${baseUrl()}/_islands/listing_worker.js`, { type: "module" });
    worker.onmessage = (e: MessageEvent<ParseReply>) => pending.get(e.data.id)?.(e.data);
  } catch {
    // Workers unavailable (old browser, blocked): parse on the main thread.
    worker = null;
  }
  return worker;
}

function parseInWorker(w: Worker, res: Response, onFirst?: (r: Resource) => void): Promise<Resource> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    let result: Resource | null = null;
    let items: Resource[] = [];
    pending.set(id, (reply) => {
      if (reply.error) {
        pending.delete(id);
        reject(new Error(reply.error));
        return;
      }
      if (reply.head) {
        result = reply.head;
        items = new Array<Resource>();
      }
      if (reply.items) { for (const item of reply.items) items.push(item); }
      if (reply.head && !reply.done && reply.items?.length) onFirst?.({ ...result!, items: items.slice() });
      if (reply.done) {
        pending.delete(id);
        resolve(result!.items ? { ...result!, items } : result!);
      }
    });
    const body = res.body;
    try {
      // Hand the body stream over: the bytes then flow to the worker, not through the main thread.
      w.postMessage({ id, stream: body! } satisfies ParseRequest, [body! as unknown as Transferable]);
    } catch {
      // Streams not transferable here: buffer on this thread and transfer the bytes.
      res.arrayBuffer().then(
        (buffer) => w.postMessage({ id, buffer } satisfies ParseRequest, [buffer]),
        reject,
      );
    }
  });
}

let warmed = false;

function warmFormatters(): void {
  // The Intl formatters the rows use are costly to create; make them while waiting for the network,
  // not in the task that paints the first rows.
  if (warmed) return;
  warmed = true;
  const locale = browserPage?.info.locale ?? "en";
  const now = new Date().toISOString();
  formatSize(1, locale);
  formatDate(now, locale);
  formatRelative(now, { locale });
}

/** Options of loadResource. */
export interface LoadOptions {
  /** Gets the folder with its first items while the rest is still being parsed (big folders only). */
  onFirst?: (r: Resource) => void;
  /** Use the cookie (the first load of a page, which the server preloaded with `<link rel="preload">`). */
  preloaded?: boolean;
}

/** GETs a resource (a folder's items in display order: folders first); big listings are parsed off the main thread and reported early through `onFirst`. */
export async function loadResource(path: string, options: LoadOptions = {}): Promise<Resource> {
  // Start the worker while the request is in flight, so it is warm when a big answer arrives.
  getWorker();
  warmFormatters();
  const res = await apiFetch(resourceApiPath(path), { cookieAuth: options.preloaded });
  const length = Number(res.headers.get("Content-Length") ?? 0);
  const w = length >= WORKER_THRESHOLD ? getWorker() : null;
  if (!w) return inDisplayOrder(await readJson<Resource>(res));
  const onFirst = options.onFirst;
  return inDisplayOrder(await parseInWorker(w, res, onFirst && ((r) => onFirst(inDisplayOrder(r)))));
}
