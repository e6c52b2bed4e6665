/**
 * Folder watches for the listing cache, the folder-size cache and the search index, instead of `Deno.watchFs`,
 * whose watcher (the notify crate) opens every entry created in a watched folder: a named pipe blocks that open
 * until a writer comes, and the next `Deno.watchFs()` or `close()` then waits for the stuck thread on the
 * server's: one `mkfifo` stopped the whole server, SIGTERM included (issue #24). These watches only read
 * inotify's records: no entry is opened, folders are listed only to watch those below a recursive watch, and
 * a watch is added with IN_ONLYDIR | IN_DONT_FOLLOW.
 *
 * One inotify descriptor serves the process (a worker has its own); a folder watched twice shares its kernel
 * watch, removed with the last watch of it. Records are read without waiting, every {@link POLL_MS} while a
 * watch is open and at once by {@link flushWatchEvents}, which callers run before they trust what events told
 * them. Without inotify through libc, macOS and Windows use `Deno.watchFs` (FSEvents and ReadDirectoryChangesW
 * open no entries); elsewhere {@link watchFolder} throws and callers go without (uncached listings and sizes,
 * the search index's periodic check).
 */
import { log } from "../log.ts";
import { ERRNO, hasInotify, IN, Inotify, type InotifyRecord } from "./inotify.ts";

/** How often queued records are read while a watch is open. */
export const POLL_MS = 50;

/** Options of {@link watchFolder}. */
export interface WatchOptions {
  /** Also every folder below, as they come and go. */
  recursive?: boolean;
  /** One event per change, with the changed entry's path (or the folder's own, or a rescan flag). */
  onEvent: (event: Deno.FsEvent) => void;
  /** The watch ended by itself: the folder is gone, or events cannot be followed any more. */
  onEnd?: (error: Error | null) => void;
}

/** A watch made by {@link watchFolder}. */
export interface FolderWatch {
  /** Stops it: no event or end is reported after this. */
  close(): void;
  /** Resolves once it has ended (closed, or by itself). */
  readonly ended: Promise<void>;
}

/** Watches the folder `path` (a real path); throws when it cannot (no folder, no watcher, out of watches). */
export function watchFolder(path: string, options: WatchOptions): FolderWatch {
  if (hasInotify()) return new InotifyWatch(hub(), path, options);
  if (Deno.build.os === "darwin" || Deno.build.os === "windows") return denoWatch(path, options);
  throw new Error("no file-system watcher that leaves entries unopened on this platform");
}

/** Reads and reports every record queued so far (events reach their watches before this returns). */
export function flushWatchEvents(): void {
  shared?.flush();
}

let shared: Hub | null = null;

function hub(): Hub {
  return shared ??= new Hub();
}

/** The process's inotify descriptor and which watches each kernel watch serves. */
class Hub {
  readonly inotify = new Inotify();
  readonly #byWd = new Map<number, Set<InotifyWatch>>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #flushing = false;

  /** Adds a kernel watch of `path` for `watch`; the descriptor, or `-errno`. */
  add(path: string, watch: InotifyWatch): number {
    const wd = this.inotify.add(path);
    if (wd < 0) {
      this.#closeIfUnused();
      return wd;
    }
    let set = this.#byWd.get(wd);
    if (set === undefined) this.#byWd.set(wd, set = new Set());
    set.add(watch);
    this.#timer ??= setInterval(() => this.flush(), POLL_MS);
    return wd;
  }

  /** `watch` no longer needs `wd`: the kernel watch goes with its last user, the descriptor with the last one. */
  release(wd: number, watch: InotifyWatch): void {
    const set = this.#byWd.get(wd);
    if (set === undefined || !set.delete(watch) || set.size > 0) return;
    this.#byWd.delete(wd);
    this.inotify.remove(wd);
    this.#closeIfUnused();
  }

  flush(): void {
    if (this.#flushing) return;
    this.#flushing = true;
    try {
      for (const record of this.inotify.read()) this.#dispatch(record);
    } finally {
      this.#flushing = false;
    }
    this.#closeIfUnused();
  }

  #dispatch(record: InotifyRecord): void {
    if (record.mask & IN.Q_OVERFLOW) {
      // Events were lost: every watch must look again.
      const all = new Set([...this.#byWd.values()].flatMap((s) => [...s]));
      for (const watch of all) watch.report({ kind: "other", paths: [], flag: "rescan" });
      return;
    }
    const watches = this.#byWd.get(record.wd);
    if (watches === undefined) return;
    // The kernel dropped this watch (its folder was deleted or unmounted, or it was removed).
    if (record.mask & IN.IGNORED) this.#byWd.delete(record.wd);
    for (const watch of [...watches]) watch.handle(record);
  }

  /** With no watch left, the timer stops and the descriptor is closed (the next watch makes a new one). */
  #closeIfUnused(): void {
    if (this.#byWd.size > 0 || this.#flushing) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.inotify.close();
    if (shared === this) shared = null;
  }
}

/** One watch: its root and, when recursive, every folder below it, by kernel watch. */
class InotifyWatch implements FolderWatch {
  readonly #hub: Hub;
  readonly #root: string;
  readonly #options: WatchOptions;
  /** Kernel watch → the folder's path (the first path seen: a bind mount loop is not descended twice). */
  readonly #paths = new Map<number, string>();
  readonly #rootWd: number;
  #done = false;
  #resolve!: () => void;
  readonly ended = new Promise<void>((resolve) => (this.#resolve = resolve));

  constructor(hub: Hub, root: string, options: WatchOptions) {
    this.#hub = hub;
    this.#root = root;
    this.#options = options;
    const wd = hub.add(root, this);
    if (wd < 0) {
      this.#finish();
      throw new Error(`cannot watch "${root}" (${describe(-wd)})`);
    }
    this.#rootWd = wd;
    this.#paths.set(wd, root);
    if (!options.recursive) return;
    const failed = this.#addBelow(root);
    if (failed !== null) {
      this.close();
      throw failed;
    }
  }

  close(): void {
    if (this.#done) return;
    for (const wd of this.#paths.keys()) this.#hub.release(wd, this);
    this.#paths.clear();
    this.#finish();
  }

  /** Reports an event unless closed; a throwing callback is logged, not passed on to other watches. */
  report(event: Deno.FsEvent): void {
    if (this.#done) return;
    try {
      this.#options.onEvent(event);
    } catch (err) {
      log.error("file watch: an event handler failed", err);
    }
  }

  handle(record: InotifyRecord): void {
    const dir = this.#paths.get(record.wd);
    if (dir === undefined || this.#done) return;
    const { mask, name } = record;
    if (mask & IN.IGNORED) {
      // The kernel dropped the watch: the folder was deleted or unmounted.
      this.#paths.delete(record.wd);
      if (record.wd === this.#rootWd) this.#end(null);
      return;
    }
    const path = name === "" ? dir : dir === "/" ? `/${name}` : `${dir}/${name}`;
    const isDir = (mask & IN.ISDIR) !== 0;
    if (this.#options.recursive && isDir && name !== "") {
      if (mask & (IN.MOVED_FROM | IN.DELETE)) this.#forget(path);
      if (mask & (IN.MOVED_TO | IN.CREATE)) {
        const failed = this.#addBelow(path, true);
        if (failed !== null) return this.#end(failed);
      }
    }
    this.report({ kind: kindOf(mask), paths: [path] });
  }

  /**
   * Watches every folder below `dir` (and `dir` itself when `self`); an error when the kernel is out of watches
   * (folders that vanish or cannot be read meanwhile are skipped).
   */
  #addBelow(dir: string, self = false): Error | null {
    const stack = [dir];
    let first = self;
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (first) {
        first = false;
        const wd = this.#hub.add(at, this);
        if (wd === -ERRNO.ENOSPC) return new Error(`cannot watch "${at}" (${describe(ERRNO.ENOSPC)})`);
        if (wd < 0) continue;
        if (this.#paths.has(wd)) continue;
        this.#paths.set(wd, at);
      }
      let entries: Deno.DirEntry[];
      try {
        // floor-exempt: only folder names, to place watches (IN_DONT_FOLLOW); nothing of a user's is read, and
        // what an event names is read through the floor by whoever reacts to it.
        entries = [...Deno.readDirSync(at)];
      } catch {
        continue; // vanished or unreadable meanwhile
      }
      for (const e of entries) {
        if (!e.isDirectory) continue;
        const child = at === "/" ? `/${e.name}` : `${at}/${e.name}`;
        const wd = this.#hub.add(child, this);
        if (wd === -ERRNO.ENOSPC) return new Error(`cannot watch "${child}" (${describe(ERRNO.ENOSPC)})`);
        if (wd < 0 || this.#paths.has(wd)) continue;
        this.#paths.set(wd, child);
        stack.push(child);
      }
    }
    return null;
  }

  /** Stops watching `dir` and everything below it (moved away or deleted). */
  #forget(dir: string): void {
    const prefix = dir + "/";
    for (const [wd, path] of this.#paths) {
      if (wd === this.#rootWd || (path !== dir && !path.startsWith(prefix))) continue;
      this.#paths.delete(wd);
      this.#hub.release(wd, this);
    }
  }

  #end(error: Error | null): void {
    if (this.#done) return;
    const onEnd = this.#options.onEnd;
    this.close();
    try {
      onEnd?.(error);
    } catch (err) {
      log.error("file watch: an end handler failed", err);
    }
  }

  #finish(): void {
    this.#done = true;
    this.#resolve();
  }
}

function kindOf(mask: number): Deno.FsEvent["kind"] {
  if (mask & (IN.CREATE | IN.MOVED_TO)) return "create";
  if (mask & (IN.DELETE | IN.MOVED_FROM | IN.DELETE_SELF)) return "remove";
  if (mask & IN.MOVE_SELF) return "rename";
  return "modify";
}

function describe(errno: number): string {
  if (errno === ERRNO.ENOSPC) return "out of inotify watches: raise fs.inotify.max_user_watches";
  if (errno === ERRNO.ENOENT) return "no such folder";
  if (errno === ERRNO.ENOTDIR) return "not a folder";
  if (errno === ERRNO.EACCES) return "permission denied";
  return `errno ${errno}`;
}

/** `Deno.watchFs` behind the same interface, where its watcher opens no entries (macOS, Windows). */
function denoWatch(path: string, options: WatchOptions): FolderWatch {
  // floor-exempt: a watch reads nothing; its events only name entries, which are read through the floor.
  const watcher = Deno.watchFs(path, { recursive: options.recursive ?? false });
  let closed = false;
  const ended = (async () => {
    let error: Error | null = null;
    try {
      for await (const event of watcher) if (!closed) options.onEvent(event);
    } catch (err) {
      error = err instanceof Error ? err : new Error(String(err));
    }
    if (!closed) options.onEnd?.(error);
    closed = true;
  })();
  return {
    ended,
    close() {
      if (closed) return;
      closed = true;
      try {
        watcher.close();
      } catch {
        // Already ended by itself.
      }
    },
  };
}
