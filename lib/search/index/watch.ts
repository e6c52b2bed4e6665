/**
 * A recursive watch (lib/fs/watch.ts) on the indexed root, run in a worker (watch_worker.ts) for a large tree and on the
 * server's thread for a small one, that reports which folders changed (as paths relative to the root). Events
 * name entries; their parent folder is what must be read again. When the kernel drops events (`rescan`) or the
 * watcher fails, `onLost` asks for a full reconciliation instead.
 */
import { log } from "../../log.ts";
import { projectUrl } from "../../project_root.ts";
import { forwardEvents, type WatchMessage } from "./watch_events.ts";

/** Callbacks of {@link watchTree}. */
export interface TreeWatchOptions {
  /** Folders (relative, "" = root) whose listing may have changed. */
  onDirs: (rels: string[]) => void;
  /** Events were lost: everything must be checked. */
  onLost: () => void;
}

/** A running watcher; `ready` resolves once it sees changes (or failed); `close()` ends it. */
export interface TreeWatch {
  ready: Promise<void>;
  close(): Promise<void>;
}

/** The parent folder of a relative path ("" for top-level names). */
export function parentRel(rel: string): string {
  const i = rel.lastIndexOf("/");
  return i < 0 ? "" : rel.slice(0, i);
}

/**
 * Starts watching `root` (a real path): in a worker (`inline` false), or on this thread (`inline` true), which
 * blocks it while the watch is registered (tens of microseconds per folder) but spares the worker's memory
 * (some 8 MiB of RSS: a second V8 isolate and its threads). When the platform refuses, `ready` still resolves
 * and `onLost` is called: the periodic reconciliation then sees changes.
 */
export function watchTree(root: string, options: TreeWatchOptions, inline = false): TreeWatch {
  const prefix = root === "/" ? "/" : root + "/";
  let ready!: () => void;
  const whenReady = new Promise<void>((resolve) => (ready = resolve));
  const handle = (m: WatchMessage) => {
    if (m.type === "ready") {
      // Registering takes seconds on a large tree: say when the watch is in effect.
      if (!inline) log.info(`search index: watching ${root} in a worker`);
      ready();
    } else if (m.type === "failed") {
      log.warn(
        `search index: cannot watch ${root}; changes are seen by the periodic check only (${m.message})`,
      );
      ready();
    } else if (m.type === "stopped") {
      log.warn(
        `search index: the watcher stopped; changes are seen by the periodic check only (${m.message})`,
      );
      options.onLost();
    } else if (m.flag === "rescan") {
      options.onLost();
    } else {
      const dirs = new Set<string>();
      for (const p of m.paths) {
        if (p === root) dirs.add("");
        else if (p.startsWith(prefix)) dirs.add(parentRel(p.slice(prefix.length)));
      }
      if (dirs.size) options.onDirs([...dirs]);
    }
  };
  if (inline) {
    const stop = forwardEvents(root, handle);
    return {
      ready: whenReady,
      close() {
        stop();
        ready();
        return Promise.resolve();
      },
    };
  }
  const worker = new Worker(projectUrl("lib/search/index/watch_worker.ts"), { type: "module" });
  worker.onmessage = (e: MessageEvent<WatchMessage>) => handle(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    log.warn(`search index: the watcher failed; changes are seen by the periodic check only (${e.message})`);
    ready();
    options.onLost();
  };
  worker.postMessage({ root });
  return {
    ready: whenReady,
    close() {
      worker.terminate();
      ready();
      return Promise.resolve();
    },
  };
}
