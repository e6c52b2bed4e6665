/**
 * Worker side of {@link watchTree} (watch.ts): a recursive `Deno.watchFs` registers one inotify watch per
 * folder synchronously (seconds on a large tree), so it runs here instead of blocking the server's thread.
 * Receives `{ root }`, answers `ready` (or `failed`), then forwards events until it is terminated.
 */

/** Messages from the worker. */
export type WatchMessage =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "event"; flag: string | null; paths: string[] }
  | { type: "stopped"; message: string };

const port = self as unknown as {
  onmessage: ((e: MessageEvent<{ root: string }>) => void) | null;
  postMessage(message: WatchMessage): void;
};

port.onmessage = async (e) => {
  port.onmessage = null;
  let watcher: Deno.FsWatcher;
  try {
    watcher = Deno.watchFs(e.data.root, { recursive: true });
  } catch (err) {
    port.postMessage({ type: "failed", message: err instanceof Error ? err.message : String(err) });
    return;
  }
  port.postMessage({ type: "ready" });
  try {
    for await (const event of watcher) {
      port.postMessage({ type: "event", flag: event.flag ?? null, paths: event.paths });
    }
  } catch (err) {
    port.postMessage({ type: "stopped", message: err instanceof Error ? err.message : String(err) });
  }
};
