/**
 * The filename index of one server root (docs/architecture.md#search-index): built by a background walk at
 * start, kept fresh by a recursive watcher and a periodic mtime reconciliation, queried by /api/search
 * instead of walking the disk once ready. It holds names and kinds only; scope, rules and hiding are applied
 * per request by the caller, so a rule change takes effect on the next query. A snapshot (snapshot.ts), when
 * set, is saved on close and periodically when changed, and loaded at start to answer at once.
 */
import { log } from "../../log.ts";
import type { SearchQuery } from "../query.ts";
import { type DirJob, type Pause, reconcile, syncDirs, type WalkOptions } from "./build.ts";
import { type IndexHit, type IndexQueryOptions, queryIndex } from "./query.ts";
import { encodeSnapshot, readSnapshot, writeSnapshot } from "./snapshot.ts";
import { DIR, IndexTree } from "./tree.ts";
import { parentRel, type TreeWatch, watchTree } from "./watch.ts";

export type { IndexHit } from "./query.ts";

/** Options of {@link SearchIndex}. */
export interface SearchIndexOptions {
  /** Watch the tree for changes (default true). */
  watch?: boolean;
  /** Period of the mtime reconciliation in ms (default 60,000; 0 = only on `refresh()`). */
  reconcileMs?: number;
  /**
   * Trees of at most this many folders are watched on the server's thread, larger ones in a worker (default
   * 1,000; see watch.ts).
   */
  inlineWatchFolders?: number;
  /**
   * ... and of at most this many entries (default 2,000): registering a recursive watch lists every folder
   * (its files included), during which the thread answers nothing.
   */
  inlineWatchEntries?: number;
  /** Delay collecting watcher events before reading the folders they name (default 250 ms). */
  debounceMs?: number;
  /**
   * Asked before each folder the index reads or stats, and before its other long steps (loading the
   * snapshot, registering the watch): while it holds, the index waits, so requests go first (default: never).
   */
  pause?: Pause;
  /** Snapshot file to load at start and save on close ("" or absent: none). */
  snapshot?: string;
  /** Period of saving the snapshot when the index changed, in ms (default 600,000; 0 = only on close). */
  snapshotMs?: number;
}

/** Figures for diagnostics and the bench. */
export interface SearchIndexStats {
  ready: boolean;
  entries: number;
  bytes: number;
  buildMs: number;
  /** The index came from the snapshot (then `buildMs` is the load time). */
  fromSnapshot: boolean;
  /** Size and write time of the last snapshot saved (0 before any). */
  snapshotBytes: number;
  snapshotMs: number;
  /** Where the watch runs: on the server's thread, in a worker, or none (not started, or off). */
  watcher: "thread" | "worker" | "none";
}

/** The filename index of a folder tree; `start()` it, `close()` it. */
export class SearchIndex {
  readonly root: string;
  #real = "";
  #tree = new IndexTree();
  #ready = false;
  #closed = false;
  #buildMs = 0;
  #work: Promise<void> = Promise.resolve();
  #dirty = new Set<string>();
  #lost = false;
  #debounce: ReturnType<typeof setTimeout> | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #watch: TreeWatch | null = null;
  #watcher: SearchIndexStats["watcher"] = "none";
  #started: Promise<void> | null = null;
  /** Resolved by `close()`: ends a pause at once. */
  readonly #closing = Promise.withResolvers<void>();
  /** The tree holds a complete walk or snapshot (a partial one is never saved). */
  #complete = false;
  #fromSnapshot = false;
  #savedEpoch = -1;
  #saved = { bytes: 0, ms: 0 };
  #saveTimer: ReturnType<typeof setInterval> | undefined;
  readonly #options: Required<SearchIndexOptions>;
  /** Folders (relative paths) whose path is too long to read: they are indexed without their contents. */
  readonly #tooLong = new Set<string>();
  readonly #walk: WalkOptions;

  constructor(root: string, options: SearchIndexOptions = {}) {
    this.root = root;
    this.#options = {
      watch: true,
      inlineWatchFolders: 1_000,
      inlineWatchEntries: 2_000,
      reconcileMs: 60_000,
      debounceMs: 250,
      snapshot: "",
      snapshotMs: 600_000,
      ...options,
      pause: this.#pauseUnlessClosed(options.pause ?? (() => null)),
    };
    this.#walk = { pause: this.#options.pause, tooLong: this.#tooLong };
  }

  /** True once the first walk is complete: queries are answered from the index. */
  get ready(): boolean {
    return this.#ready;
  }

  /** The real path of the indexed root ("" before `start()`). */
  get realRoot(): string {
    return this.#real;
  }

  /**
   * Starts the watcher and the background walk (or loads the snapshot and reconciles it in the background);
   * resolves when the index is ready. Idempotent.
   */
  start(): Promise<void> {
    this.#started ??= this.#start().catch((err) => {
      if (!(err instanceof IndexClosed)) throw err;
    });
    return this.#started;
  }

  /**
   * The configured pause, which `close()` ends at once: a step waiting for requests to finish (up to the
   * activity's hold, 5 s in the server) must not hold up a shutdown. Once closed it throws {@link IndexClosed},
   * which stops the walk or reconciliation it was asked from.
   */
  #pauseUnlessClosed(pause: Pause): Pause {
    return () => {
      if (this.#closed) return Promise.reject(new IndexClosed());
      const wait = pause();
      if (wait === null) return null;
      return Promise.race([wait, this.#closing.promise]).then(() => {
        if (this.#closed) throw new IndexClosed();
      });
    };
  }

  async #start(): Promise<void> {
    // floor-exempt: the indexed root's real path, the floor's anchor of every folder read (build.ts).
    this.#real = await Deno.realPath(this.root);
    const t0 = performance.now();
    const loaded = this.#options.snapshot !== "" && await this.loadSnapshot();
    if (!loaded) {
      await this.#run(async () => {
        await syncDirs(this.#tree, this.#real, [{ id: 0, rel: "" }], this.#walk);
        this.#complete = true;
      });
    }
    // What changed while the server was down (cheap: mtimes).
    if (loaded) this.#run(() => this.#reconcile());
    // The watch starts once the tree's size is known: a small tree is watched on this thread (registering it
    // takes a few milliseconds), a large one in a worker (seconds). Whatever changed before the watcher saw it
    // is read by the reconciliation once it is registered.
    if (this.#options.watch && !this.#closed) {
      const inline = this.#tree.folders <= this.#options.inlineWatchFolders &&
        this.#tree.count <= this.#options.inlineWatchEntries;
      // Registering on this thread blocks it, starting a worker takes CPU: not while a request waits.
      await this.#options.pause();
      if (this.#closed) return;
      this.#watcher = inline ? "thread" : "worker";
      this.#watch = watchTree(this.#real, {
        onDirs: (rels) => this.#markDirty(rels),
        onLost: () => this.#markLost(),
      }, inline);
      const watching = this.#watch.ready;
      this.#run(() => watching.then(() => this.#reconcile()));
    }
    if (this.#closed) return;
    this.#buildMs = performance.now() - t0;
    this.#ready = true;
    const how = loaded ? "loaded from the snapshot" : "indexed";
    log.info(`search index: ${this.#tree.count} entries ${how} in ${ms(t0)} ms`);
    if (this.#options.reconcileMs > 0) {
      this.#timer = setInterval(() => this.#markLost(), this.#options.reconcileMs);
    }
    if (this.#options.snapshot !== "") {
      if (!loaded) this.saveSnapshot();
      if (this.#options.snapshotMs > 0) {
        this.#saveTimer = setInterval(() => {
          if (this.#tree.epoch !== this.#savedEpoch) this.saveSnapshot();
        }, this.#options.snapshotMs);
      }
    }
  }

  /**
   * Replaces the tree with the snapshot file if it is usable (same format, intact, this root); true if so.
   * An unusable one is ignored with one warning. `start()` calls it when a snapshot path is set.
   */
  async loadSnapshot(): Promise<boolean> {
    const path = this.#options.snapshot;
    if (!path) return false;
    let loaded = false;
    await this.#run(async () => {
      await this.#options.pause();
      const data = await readSnapshot(path, this.#real);
      if (data === null) return;
      if (typeof data === "string") {
        return log.warn(`search index: ignoring the snapshot ${path} (${data}); walking the tree instead`);
      }
      this.#tree.adopt(data.n, data.parent, data.flags, data.mtime, data.names, data.starts);
      this.#savedEpoch = this.#tree.epoch;
      this.#complete = this.#fromSnapshot = loaded = true;
    });
    return loaded;
  }

  /** Writes the snapshot file now (when a path is set and the tree is complete). `close()` calls it. */
  saveSnapshot(): Promise<void> {
    if (this.#closed) return this.#save();
    return this.#run(() => this.#save());
  }

  async #save(): Promise<void> {
    const path = this.#options.snapshot;
    if (!path || !this.#complete) return;
    const t0 = performance.now();
    const epoch = this.#tree.epoch;
    try {
      const bytes = await encodeSnapshot(this.#tree, this.#real);
      await writeSnapshot(path, bytes);
      this.#savedEpoch = epoch;
      this.#saved = { bytes: bytes.length, ms: performance.now() - t0 };
      log.debug(`search index: snapshot of ${bytes.length} bytes written in ${ms(t0)} ms`);
    } catch (err) {
      log.warn(`search index: cannot write the snapshot ${path}`, err);
    }
  }

  async #reconcile(): Promise<void> {
    if (this.#closed) return;
    const t0 = performance.now();
    const changed = await reconcile(this.#tree, this.#real, this.#walk);
    log.debug(`search index: reconciled (${changed} folders read) in ${ms(t0)} ms`);
  }

  /** Serialises every change to the tree. */
  #run(fn: () => Promise<unknown>): Promise<void> {
    this.#work = this.#work.then(async () => {
      if (this.#closed) return;
      await fn();
    }).catch((err) => {
      if (!(err instanceof IndexClosed)) log.error("search index: update failed", err);
    });
    return this.#work;
  }

  #markDirty(rels: string[]): void {
    for (const r of rels) this.#dirty.add(r);
    this.#schedule();
  }

  #markLost(): void {
    this.#lost = true;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#debounce !== undefined || this.#closed) return;
    this.#debounce = setTimeout(() => {
      this.#debounce = undefined;
      this.#run(() => this.#apply());
    }, this.#options.debounceMs);
  }

  /** Reads the folders named by events (or reconciles everything after a loss). */
  async #apply(): Promise<void> {
    if (this.#lost) {
      this.#lost = false;
      this.#dirty.clear();
      await reconcile(this.#tree, this.#real, this.#walk);
      return;
    }
    const jobs = new Map<number, DirJob>();
    for (const rel of this.#dirty) {
      // The nearest indexed folder: reading it picks up a new folder below it in full.
      let r = rel;
      let id = this.#tree.lookup(r);
      while (id < 0 || !(this.#tree.flags[id] & DIR)) {
        r = parentRel(r);
        id = this.#tree.lookup(r);
        if (r === "") break;
      }
      if (id >= 0) jobs.set(id, { id, rel: r });
    }
    this.#dirty.clear();
    await syncDirs(this.#tree, this.#real, [...jobs.values()], this.#walk);
  }

  /** Applies the changes the watcher reported so far; resolves when the index reflects them. */
  async settle(): Promise<void> {
    await this.start();
    if (this.#debounce !== undefined) {
      clearTimeout(this.#debounce);
      this.#debounce = undefined;
      await this.#run(() => this.#apply());
    }
    await this.#work;
  }

  /** Reconciles the whole index with the disk now (what the periodic check does), then settles. */
  async refresh(): Promise<void> {
    await this.settle();
    await this.#run(async () => {
      this.#dirty.clear();
      this.#lost = false;
      await reconcile(this.#tree, this.#real, this.#walk);
    });
  }

  /**
   * Matching entries below `rel` (a folder path relative to the real root, "" = root) in batches, in walk
   * order; null if not indexed.
   */
  query(rel: string, query: SearchQuery, options: IndexQueryOptions = {}): Generator<IndexHit[]> | null {
    if (!this.#ready) return null;
    const base = this.#tree.lookup(rel);
    if (base < 0 || !(this.#tree.flags[base] & DIR)) return null;
    return queryIndex(this.#tree, rel, query, options);
  }

  /**
   * The folders below `rel` (as paths relative to it) that are indexed without their contents because their
   * path is too long to read: a query below `rel` did not see what they hold.
   */
  tooLongBelow(rel: string): string[] {
    const prefix = rel === "" ? "" : rel + "/";
    const out: string[] = [];
    for (const r of this.#tooLong) {
      const id = this.#tree.lookup(r);
      if (id < 0 || !(this.#tree.flags[id] & DIR)) this.#tooLong.delete(r);
      else if (r.startsWith(prefix)) out.push(r.slice(prefix.length));
    }
    return out;
  }

  /** Figures for diagnostics and the bench. */
  stats(): SearchIndexStats {
    return {
      ready: this.#ready,
      entries: this.#tree.count,
      bytes: this.#tree.bytes(),
      buildMs: this.#buildMs,
      fromSnapshot: this.#fromSnapshot,
      snapshotBytes: this.#saved.bytes,
      snapshotMs: this.#saved.ms,
      watcher: this.#watcher,
    };
  }

  /** Stops the watcher and the timers, waits for work in progress and saves the snapshot if it changed. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.resolve();
    this.#ready = false;
    clearInterval(this.#timer);
    clearInterval(this.#saveTimer);
    clearTimeout(this.#debounce);
    await this.#watch?.close();
    await this.#work;
    if (this.#tree.epoch !== this.#savedEpoch) await this.#save();
  }
}

/** Thrown by the pause of a closed index: the step that asked stops (never logged as a failure). */
class IndexClosed extends Error {
  constructor() {
    super("search index closed");
  }
}

function ms(t0: number): number {
  return Math.round(performance.now() - t0);
}
