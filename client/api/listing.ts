// This module is browser-compatible.
/**
 * Fetching a resource for the files page. Answers are parsed and put in display order by
 * client/listing_worker.ts (a worker entry must sit in client/ for the build), off the main thread, and big ones
 * arrive in slices: `onFirst` gets the folder with its first items (enough to paint the first screen) before the
 * rest. The files page's first load gets its first screen from the server (islands/FileBrowser.tsx) and only the
 * rest from here.
 */
import type { Resource } from "../../lib/types.ts";
import { apiFetch, readJson } from "./http.ts";
import { resourceApiPath } from "./resources.ts";
import { baseUrl } from "../page.ts";
import type { ParseReply, ParseRequest } from "../listing_worker.ts";

let worker: Worker | null = null;
/** The worker could not start (blocked, failed to load): parse on the main thread from then on. */
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
    // The body is read natively and its bytes moved (not copied) to the worker.
    res.arrayBuffer().then(
      (buffer) => w.postMessage({ id, buffer } satisfies ParseRequest, [buffer]),
      reject,
    );
  });
}

/** Options of loadResource. */
export interface LoadOptions {
  /** Gets the folder with its first items while the rest is still being parsed (big folders only). */
  onFirst?: (r: Resource) => void;
  /** Use the cookie (the first load of a page, which the server preloaded with `<link rel="preload">`). */
  preloaded?: boolean;
}

/** GETs a resource (a folder's items in display order: folders first), parsed off the main thread; big listings are reported early through `onFirst`. */
export async function loadResource(path: string, options: LoadOptions = {}): Promise<Resource> {
  // Start the worker while the request is in flight, so it is warm when a big answer arrives.
  getWorker();
  const res = await apiFetch(resourceApiPath(path), { cookieAuth: options.preloaded });
  const w = getWorker();
  // The order code is only needed here without a worker (which hands the items over in display order).
  if (!w) return (await import("../display_order.ts")).inDisplayOrder(await readJson<Resource>(res));
  return await parseInWorker(w, res, options.onFirst);
}
