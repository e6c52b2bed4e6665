/**
 * A recursive `Deno.watchFs` on the indexed root that reports which folders changed (as paths relative to
 * the root). Events name entries; their parent folder is what must be read again. When the kernel drops
 * events (`rescan`) or the watcher fails, `onLost` asks for a full reconciliation instead.
 */
import { log } from "../../log.ts";

/** Callbacks of {@link watchTree}. */
export interface TreeWatchOptions {
  /** Folders (relative, "" = root) whose listing may have changed. */
  onDirs: (rels: string[]) => void;
  /** Events were lost: everything must be checked. */
  onLost: () => void;
}

/** A running watcher; `close()` ends it and resolves once its loop has ended. */
export interface TreeWatch {
  close(): Promise<void>;
}

/** The parent folder of a relative path ("" for top-level names). */
export function parentRel(rel: string): string {
  const i = rel.lastIndexOf("/");
  return i < 0 ? "" : rel.slice(0, i);
}

/** Starts watching `root` (a real path); returns null when the platform refuses (reconciliation still runs). */
export function watchTree(root: string, options: TreeWatchOptions): TreeWatch | null {
  let watcher: Deno.FsWatcher;
  try {
    watcher = Deno.watchFs(root, { recursive: true });
  } catch (err) {
    log.warn(`search index: cannot watch ${root}; changes are seen by the periodic check only`, err);
    return null;
  }
  const prefix = root === "/" ? "/" : root + "/";
  const loop = (async () => {
    try {
      for await (const event of watcher) {
        if (event.flag === "rescan") {
          options.onLost();
          continue;
        }
        const dirs = new Set<string>();
        for (const p of event.paths) {
          if (p === root) dirs.add("");
          else if (p.startsWith(prefix)) dirs.add(parentRel(p.slice(prefix.length)));
        }
        if (dirs.size) options.onDirs([...dirs]);
      }
    } catch (err) {
      log.warn("search index: the watcher stopped; changes are seen by the periodic check only", err);
      options.onLost();
    }
  })();
  return {
    async close() {
      try {
        watcher.close();
      } catch {
        // Already closed.
      }
      await loop;
    },
  };
}
