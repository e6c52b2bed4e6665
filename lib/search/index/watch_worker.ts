/**
 * Worker side of {@link watchTree} (watch.ts): a recursive watch (lib/fs/watch.ts) lists every folder and
 * registers one inotify watch per folder synchronously (seconds on a large tree), so for a large tree it runs
 * here instead of blocking the server's thread. Receives `{ root }`, answers `ready` (or `failed`), then forwards events until it is
 * terminated.
 */
import { forwardEvents, type WatchMessage } from "./watch_events.ts";

export type { WatchMessage };

const port = self as unknown as {
  onmessage: ((e: MessageEvent<{ root: string }>) => void) | null;
  postMessage(message: WatchMessage): void;
};

port.onmessage = (e) => {
  port.onmessage = null;
  forwardEvents(e.data.root, (m) => port.postMessage(m));
};
