/**
 * The watch itself, shared by the watcher worker (watch_worker.ts) and the watcher on the server's thread
 * (watch.ts): a recursive `Deno.watchFs` and the messages it is reported with.
 */

/** Messages of a running watch. */
export type WatchMessage =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "event"; flag: string | null; paths: string[] }
  | { type: "stopped"; message: string };

/**
 * Watches `root` (recursive `Deno.watchFs`) and sends `ready` (or `failed`) once the watch is registered, then
 * every event until the returned stop function is called (nothing is sent after that) or the watch fails
 * (`stopped`).
 */
export function forwardEvents(root: string, send: (m: WatchMessage) => void): () => void {
  let watcher: Deno.FsWatcher;
  try {
    watcher = Deno.watchFs(root, { recursive: true });
  } catch (err) {
    send({ type: "failed", message: err instanceof Error ? err.message : String(err) });
    return () => {};
  }
  let stopped = false;
  send({ type: "ready" });
  (async () => {
    try {
      for await (const event of watcher) {
        if (stopped) break;
        send({ type: "event", flag: event.flag ?? null, paths: event.paths });
      }
    } catch (err) {
      if (!stopped) send({ type: "stopped", message: err instanceof Error ? err.message : String(err) });
    }
  })();
  return () => {
    if (stopped) return;
    stopped = true;
    watcher.close();
  };
}
