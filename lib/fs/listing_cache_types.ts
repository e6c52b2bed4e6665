/** Options and statistics of ListingCache (listing_cache.ts). */

/** Bounds of a ListingCache. */
export interface ListingCacheOptions {
  /** Most directories kept (each holds one watcher). Default 64. */
  maxDirs?: number;
  /** Most entries kept over all directories; larger directories are never cached. Default 250,000. */
  maxEntries?: number;
  /** Directories with fewer entries are not cached. Default 256. */
  minEntries?: number;
  /** A snapshot older than this is read again. Default 60,000. */
  maxAgeMs?: number;
  /** Most bytes kept over all snapshots and their renderings (see listing_snapshot.ts's `snapshotBytes()`). Default 64 MiB. */
  maxBytes?: number;
  /** After this many ms without a snapshot request the largest folders are dropped (0: never). Default 20,000. */
  idleMs?: number;
  /** What an idle drop may keep (the smallest folders). Default 8 MiB. */
  idleKeepBytes?: number;
  /** Runs after an idle drop. Default: listing_memory.ts's `releaseMemory()`. */
  onIdle?: () => void;
}

/** Options of `ListingCache.snapshot()`. */
export interface SnapshotOptions {
  readHeaders: boolean;
  /** Only for uncached reads: a cached read may be shared, and its result is worth keeping anyway. */
  signal?: AbortSignal;
}

/** What a cache holds right now (for tests and diagnostics). */
export interface ListingCacheStats {
  dirs: number;
  entries: number;
  /** Bytes held, as counted when each folder was last used. */
  bytes: number;
  watchers: number;
  hits: number;
  misses: number;
  /** Misses that shared a read already in progress. */
  joined: number;
  /** Snapshots patched after a change instead of read again (neither hits nor misses). */
  patches: number;
  /** Times everything was dropped for being idle. */
  idleDrops: number;
  /** File-system events seen by the watchers of the folders held now. */
  events: number;
}
