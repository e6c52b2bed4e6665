/**
 * The watch itself, shared by the watcher worker (watch_worker.ts) and the watcher on the server's thread
 * (watch.ts): a recursive watch of lib/fs/watch.ts and the messages it is reported with.
 */
import { type FolderWatch, watchFolder } from "../../fs/watch.ts";

/** Messages of a running watch. */
export type WatchMessage =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "event"; flag: string | null; paths: string[] }
  | { type: "stopped"; message: string };

/**
 * Watches `root` recursively (lib/fs/watch.ts, which never opens an entry) and sends `ready` (or `failed`)
 * once the watch is registered, then every event until the returned stop function is called (nothing is sent
 * after that) or the watch ends (`stopped`).
 */
export function forwardEvents(root: string, send: (m: WatchMessage) => void): () => void {
  let watch: FolderWatch;
  try {
    watch = watchFolder(root, {
      recursive: true,
      onEvent: (event) => send({ type: "event", flag: event.flag ?? null, paths: event.paths }),
      onEnd: (err) => send({ type: "stopped", message: err?.message ?? `${root} is gone` }),
    });
  } catch (err) {
    send({ type: "failed", message: err instanceof Error ? err.message : String(err) });
    return () => {};
  }
  send({ type: "ready" });
  return () => watch.close();
}
