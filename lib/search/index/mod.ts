/**
 * The filename index of one server root (docs/architecture.md#search-index): built by a background walk at
 * start, kept fresh by a recursive watcher and a periodic mtime reconciliation, queried by /api/search
 * instead of walking the disk once ready. It holds names and kinds only; scope, rules and hiding are applied
 * per request by the caller, so a rule change takes effect on the next query.
 */
import { log } from "../../log.ts";
import type { SearchQuery } from "../query.ts";
import { type DirJob, reconcile, syncDirs } from "./build.ts";
import { type IndexHit, queryIndex } from "./query.ts";
import { DIR, IndexTree } from "./tree.ts";
import { parentRel, type TreeWatch, watchTree } from "./watch.ts";

export type { IndexHit } from "./query.ts";

/** Options of {@link SearchIndex}. */
export interface SearchIndexOptions {
  /** Watch the tree for changes (default true). */
  watch?: boolean;
  /** Period of the mtime reconciliation in ms (default 60,000; 0 = only on `refresh()`). */
  reconcileMs?: number;
  /** Delay collecting watcher events before reading the folders they name (default 50 ms). */
  debounceMs?: number;
}

/** Figures for diagnostics and the bench. */
export interface SearchIndexStats {
  ready: boolean;
  entries: number;
  bytes: number;
  buildMs: number;
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
  #started: Promise<void> | null = null;
  readonly #options: Required<SearchIndexOptions>;

  constructor(root: string, options: SearchIndexOptions = {}) {
    this.root = root;
    this.#options = { watch: true, reconcileMs: 60_000, debounceMs: 50, ...options };
  }

  /** True once the first walk is complete: queries are answered from the index. */
  get ready(): boolean {
    return this.#ready;
  }

  /** The real path of the indexed root ("" before `start()`). */
  get realRoot(): string {
    return this.#real;
  }

  /** Starts the watcher and the background walk; resolves when the index is ready. Idempotent. */
  start(): Promise<void> {
    this.#started ??= this.#start();
    return this.#started;
  }

  async #start(): Promise<void> {
    this.#real = await Deno.realPath(this.root);
    const t0 = performance.now();
    // Watch first: whatever changes during the walk is read again afterwards.
    if (this.#options.watch) {
      this.#watch = watchTree(this.#real, {
        onDirs: (rels) => this.#markDirty(rels),
        onLost: () => this.#markLost(),
      });
    }
    await this.#run(() => syncDirs(this.#tree, this.#real, [{ id: 0, rel: "" }]));
    if (this.#closed) return;
    this.#buildMs = performance.now() - t0;
    this.#ready = true;
    log.info(`search index: ${this.#tree.count} entries indexed in ${Math.round(this.#buildMs)} ms`);
    if (this.#options.reconcileMs > 0) {
      this.#timer = setInterval(() => this.#markLost(), this.#options.reconcileMs);
    }
  }

  /** Serialises every change to the tree. */
  #run(fn: () => Promise<unknown>): Promise<void> {
    this.#work = this.#work.then(async () => {
      if (this.#closed) return;
      await fn();
    }).catch((err) => log.error("search index: update failed", err));
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
      await reconcile(this.#tree, this.#real);
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
    await syncDirs(this.#tree, this.#real, [...jobs.values()]);
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
      await reconcile(this.#tree, this.#real);
    });
  }

  /** Matching entries below `rel` (a folder path relative to the real root, "" = root); null if not indexed. */
  query(rel: string, query: SearchQuery): IndexHit[] | null {
    if (!this.#ready) return null;
    const base = this.#tree.lookup(rel);
    if (base < 0 || !(this.#tree.flags[base] & DIR)) return null;
    return queryIndex(this.#tree, base, query);
  }

  /** Figures for diagnostics and the bench. */
  stats(): SearchIndexStats {
    return {
      ready: this.#ready,
      entries: this.#tree.count,
      bytes: this.#tree.bytes(),
      buildMs: this.#buildMs,
    };
  }

  /** Stops the watcher and the timers and waits for work in progress. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#ready = false;
    clearInterval(this.#timer);
    clearTimeout(this.#debounce);
    await this.#watch?.close();
    await this.#work;
  }
}
