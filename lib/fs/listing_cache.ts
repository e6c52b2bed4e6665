/**
 * A bounded in-memory cache of directory snapshots (LRU over directories, with a total entry budget).
 *
 * A cached snapshot is served as it is while all of these hold:
 * - no event came from the directory's watcher (lib/fs/watch.ts) since the read began (the watcher exists
 *   before the read, so nothing in between is missed; queued events are read before every lookup, and a
 *   watcher that ends drops its directory);
 * - the directory's dev/ino/mtime/ctime, stat'ed on every hit, equal the ones taken before the read (second
 *   line of defence, e.g. for file systems without inotify or an event not delivered yet), and the read was
 *   not "racy" (mtime too close to the read's start to tell later changes apart);
 * - its sub-directories, lstat'ed on every hit, are still directories (their own facts are refreshed);
 * - its last full read is younger than `maxAgeMs`, which bounds staleness where inotify is blind (writes
 *   through a hard link in another folder or through mmap, network and FUSE file systems).
 * Otherwise, when only the first two changed, it is patched (listing_patch.ts) into a new snapshot, as if
 * read when the patch began: the names the events named since its read began are lstat'ed again, and when
 * the stamp moved (or the read was racy) so is every entry, in one getdents64 pass that finds the entries
 * added, removed, replaced (another inode) or changed, events delivered or not: as exact as the full read it
 * replaces. Events that name no entry of the folder, more changed names than 1/8 of the entries or
 * MAX_PATCH_NAMES, another inode at the path, a watcher that ended, a snapshot read without getdents64 whose
 * stamp moved, or another `readHeaders` mean a full read instead. Patching is synchronous, so an event
 * handled after it has a later number and names its entry again: none is lost.
 * Symlink targets are never cached: `renderListing` resolves them per request. Directories with fewer than
 * `minEntries` entries are read each time (cheap) and use no watcher.
 *
 * Snapshots and their kept renderings count against `maxBytes` (least recently used out); after `idleMs`
 * without a listing the largest are dropped (down to `idleKeepBytes`) and memory given back ({@link releaseMemory}).
 *
 * A kernel watch stays on the inode it was made for, and two watches of one inode share it: a folder is
 * re-watched only after its previous watcher has ended, and one inode is never watched under two paths (a
 * moved folder), so each slot's events name the path it serves.
 */
import { log } from "../log.ts";
import type { ScopedPath } from "./gate.ts";
import { flushWatchEvents, type FolderWatch, watchFolder } from "./watch.ts";
import {
  type DirSnapshot,
  type DirStamp,
  inodeKey,
  isRacy,
  isSameInode,
  isSameStamp,
  RACY_MS,
  refreshDirs,
  scanDirectory,
  snapshotBytes,
  stampOf,
} from "./listing_snapshot.ts";
import { IdleTimer, releaseMemory } from "./listing_memory.ts";
import { ChangeLog, MAX_PATCH_NAMES } from "./listing_changes.ts";
import { patchToNow } from "./listing_patch.ts";
import type { ListingCacheOptions, ListingCacheStats, SnapshotOptions } from "./listing_cache_types.ts";

export type { ListingCacheOptions, ListingCacheStats, SnapshotOptions };

/** How many directories known to be small are remembered. */
const SMALL_MEMO = 1024;

interface Slot {
  real: string;
  watcher: FolderWatch;
  /** The directory the watcher is on. */
  watched: DirStamp;
  /** Events seen so far and the names they changed. */
  changes: ChangeLog;
  snapshot: DirSnapshot | null;
  /** `changes.events` when the snapshot's read (or patch) began. */
  snapshotEvents: number;
  entries: number;
  bytes: number;
  /** Resolves when the watcher has ended. */
  loop: Promise<void>;
  /** The read in progress, which requests arriving meanwhile may share. */
  pending: PendingScan | null;
}

interface PendingScan {
  promise: Promise<DirSnapshot>;
  /** The folder's stamp and the slot's event count just before the read began. */
  stamp: DirStamp;
  events: number;
  readHeaders: boolean;
  startedAt: number;
}

/** Per-directory listing cache invalidated by file-system events; dispose with {@link ListingCache.close}. */
export class ListingCache {
  readonly #maxDirs: number;
  readonly #maxEntries: number;
  readonly #minEntries: number;
  readonly #maxAgeMs: number;
  readonly #maxBytes: number;
  readonly #onIdle: () => void;
  readonly #idleKeepBytes: number;
  /** Map order is recency order (least recent first). */
  readonly #slots = new Map<string, Slot>();
  /** Live slots by the identity (dev:ino) of the folder they watch. */
  readonly #watchedInodes = new Map<string, Slot>();
  /** Watchers closed but not yet ended, by `p:<path>` and `i:<dev>:<ino>`. */
  readonly #closing = new Map<string, Promise<void>>();
  readonly #small = new Map<string, DirStamp>();
  readonly #loops = new Set<Promise<void>>();
  #entries = 0;
  #bytes = 0;
  readonly #idle: IdleTimer | null;
  #idleDrops = 0;
  #hits = 0;
  #misses = 0;
  #joined = 0;
  #patches = 0;
  #closed = false;

  constructor(options: ListingCacheOptions = {}) {
    this.#maxDirs = options.maxDirs ?? 64;
    this.#maxEntries = options.maxEntries ?? 250_000;
    this.#minEntries = options.minEntries ?? 256;
    this.#maxAgeMs = options.maxAgeMs ?? 60_000;
    this.#maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    const idleMs = options.idleMs ?? 20_000;
    this.#idle = idleMs > 0 ? new IdleTimer(idleMs, () => this.#dropIdle()) : null;
    this.#onIdle = options.onIdle ?? releaseMemory;
    this.#idleKeepBytes = options.idleKeepBytes ?? 8 * 1024 * 1024;
  }

  /** The snapshot of a gate-checked directory: from the cache when still valid, else read (and cached). */
  async snapshot(dir: ScopedPath, options: SnapshotOptions): Promise<DirSnapshot> {
    const real = dir.real;
    const at = { real, anchor: dir.confinement.anchor };
    if (this.#closed) return await scanDirectory(at, options);
    this.#idle?.touch();
    // Events of changes made so far reach their slots before anything is served.
    flushWatchEvents();
    const slot = this.#slots.get(real);
    let now: DirStamp;
    try {
      // floor-exempt: the stamp only decides whether the cached facts are still valid; every read of the folder
      // goes through the floor (a folder swapped for a link has another inode: the snapshot is read again).
      now = stampOf(Deno.statSync(real));
    } catch (err) {
      if (slot !== undefined) this.#drop(slot);
      throw err;
    }
    if (slot !== undefined) {
      const snap = slot.snapshot;
      if (
        snap !== null && snap.readHeaders === options.readHeaders && isSameInode(snap.stamp, now) &&
        Date.now() - snap.fullScannedAt < this.#maxAgeMs
      ) {
        const fresh = slot.changes.events === slot.snapshotEvents && isSameStamp(snap.stamp, now) &&
          !isRacy(snap);
        const served = fresh ? snap : this.#patch(slot, snap, now);
        if (served !== null && refreshDirs(served)) {
          if (fresh) this.#hits++;
          this.#slots.delete(real);
          this.#slots.set(real, slot);
          // Renderings kept since the last use count now.
          this.#account(slot);
          return served;
        }
      }
      if (!isSameInode(slot.watched, now)) this.#drop(slot);
    }
    this.#misses++;
    const small = this.#small.get(real);
    if (small !== undefined && isSameStamp(small, now)) return await scanDirectory(at, options);
    this.#small.delete(real);
    let live = this.#slots.get(real) ?? null;
    if (live === null) {
      await this.#settle(real, now);
      if (this.#closed) return await scanDirectory(at, options);
      live = this.#slots.get(real) ?? this.#watch(real, now);
    }
    if (live === null) return await scanDirectory(at, options);
    const shared = live.pending;
    if (
      shared !== null && shared.readHeaders === options.readHeaders &&
      shared.events === live.changes.events &&
      isSameStamp(shared.stamp, now) && Math.max(now.mtimeMs, now.ctimeMs) < shared.startedAt - RACY_MS
    ) {
      // Nothing changed since that read began, so it is as fresh as one started now.
      this.#joined++;
      return await shared.promise;
    }
    const startEvents = live.changes.events;
    const startedAt = Date.now();
    // No signal: others may share this read, and its result is kept even if this client is gone.
    const scan: PendingScan = {
      promise: scanDirectory(at, { readHeaders: options.readHeaders }),
      stamp: now,
      events: startEvents,
      readHeaders: options.readHeaders,
      startedAt,
    };
    live.pending = scan;
    let snap: DirSnapshot;
    try {
      snap = await scan.promise;
    } finally {
      if (live.pending === scan) live.pending = null;
    }
    if (this.#slots.get(real) !== live) return snap; // dropped meanwhile (watcher error, eviction, close)
    // A patch began after this read did: it is the newer one.
    if (live.snapshot !== null && live.snapshotEvents > startEvents) return snap;
    const count = snap.names.length;
    const moved = !isSameInode(live.watched, snap.stamp);
    if (count < this.#minEntries || count > this.#maxEntries || moved) {
      this.#drop(live);
      if (count < this.#minEntries && !moved) this.#rememberSmall(real, snap.stamp);
      return snap;
    }
    this.#keep(live, snap, startEvents);
    this.#slots.delete(real);
    this.#slots.set(real, live);
    this.#account(live);
    return snap;
  }

  /** Makes `snap`, read from event `events` on, the slot's snapshot. */
  #keep(slot: Slot, snap: DirSnapshot, events: number): void {
    this.#entries += snap.names.length - slot.entries;
    slot.entries = snap.names.length;
    slot.snapshot = snap;
    slot.snapshotEvents = events;
    slot.changes.forget(events);
  }

  /** The slot's snapshot patched to the folder as it is now (see above); null when it must be read again. */
  #patch(slot: Slot, snap: DirSnapshot, now: DirStamp): DirSnapshot | null {
    const max = Math.min(MAX_PATCH_NAMES, Math.floor(snap.names.length / 8));
    const names = slot.changes.since(slot.snapshotEvents, max);
    if (names === null) return null;
    const startEvents = slot.changes.events;
    const patched = patchToNow(snap, names, now, max);
    const count = patched?.names.length ?? 0;
    if (patched === null || count < this.#minEntries || count > this.#maxEntries) return null;
    this.#patches++;
    this.#keep(slot, patched, startEvents);
    return patched;
  }

  /** Current size and counters. */
  stats(): ListingCacheStats {
    return {
      dirs: [...this.#slots.values()].filter((s) => s.snapshot !== null).length,
      entries: this.#entries,
      bytes: this.#bytes,
      watchers: this.#slots.size,
      hits: this.#hits,
      misses: this.#misses,
      joined: this.#joined,
      patches: this.#patches,
      idleDrops: this.#idleDrops,
      events: [...this.#slots.values()].reduce((n, s) => n + s.changes.events, 0),
    };
  }

  /** Closes every watcher and stops caching (later calls read directories directly). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#idle?.close();
    for (const slot of [...this.#slots.values()]) this.#drop(slot);
    this.#small.clear();
    await Promise.all([...this.#loops]);
    this.#closing.clear();
  }

  /** Waits until no watcher of this path, or of this folder under another path, is left (see above). */
  async #settle(real: string, now: DirStamp): Promise<void> {
    const other = this.#watchedInodes.get(inodeKey(now));
    if (other !== undefined && other.real !== real) this.#drop(other);
    const pending = [this.#closing.get(`p:${real}`), this.#closing.get(`i:${inodeKey(now)}`)];
    await Promise.all(pending);
  }

  #watch(real: string, before: DirStamp): Slot | null {
    let watcher: FolderWatch;
    let watched: DirStamp;
    // Events go to the slot made below: none is reported before the next flush.
    let slot: Slot | null = null;
    try {
      watcher = watchFolder(real, {
        onEvent: (event) => slot?.changes.record(event),
        onEnd: (err) => {
          if (err !== null) log.debug(`listing cache: watcher of "${real}" failed`, err);
          if (slot !== null) this.#ended(slot);
        },
      });
    } catch (err) {
      // Out of inotify watches, or no permission: serve uncached.
      log.debug(`listing cache: cannot watch "${real}"`, err);
      return null;
    }
    try {
      // floor-exempt: a stamp to compare (see snapshot()).
      watched = stampOf(Deno.statSync(real));
    } catch (err) {
      watcher.close();
      throw err;
    }
    slot = {
      real,
      watcher,
      watched,
      changes: new ChangeLog(real),
      snapshot: null,
      snapshotEvents: -1,
      entries: 0,
      bytes: 0,
      loop: watcher.ended,
      pending: null,
    };
    this.#loops.add(slot.loop);
    slot.loop.finally(() => this.#loops.delete(watcher.ended));
    // Replaced while the watch was being made: which inode is watched is unknown.
    if (!isSameInode(before, watched)) {
      this.#release(slot);
      return null;
    }
    this.#slots.set(real, slot);
    this.#watchedInodes.set(inodeKey(watched), slot);
    return slot;
  }

  /** The watcher ended by itself (the folder is gone): nothing it covered may be served any more. */
  #ended(slot: Slot): void {
    slot.changes.end();
    if (this.#slots.get(slot.real) === slot) this.#drop(slot);
  }

  #drop(slot: Slot): void {
    if (this.#slots.get(slot.real) === slot) {
      this.#slots.delete(slot.real);
      this.#entries -= slot.entries;
      this.#bytes -= slot.bytes;
    }
    const key = inodeKey(slot.watched);
    if (this.#watchedInodes.get(key) === slot) this.#watchedInodes.delete(key);
    slot.entries = 0;
    slot.bytes = 0;
    slot.snapshot = null;
    this.#release(slot);
  }

  /** Closes a slot's watcher and remembers it until it has ended. */
  #release(slot: Slot): void {
    const keys = [`p:${slot.real}`, `i:${inodeKey(slot.watched)}`];
    for (const key of keys) this.#closing.set(key, slot.loop);
    slot.loop.finally(() => {
      for (const key of keys) if (this.#closing.get(key) === slot.loop) this.#closing.delete(key);
    });
    slot.watcher.close();
  }

  /** Counts a slot's bytes as they are now, evicts what no longer fits and arms the idle timer. */
  #account(slot: Slot): void {
    const snap = slot.snapshot;
    if (snap === null) return;
    let bytes = snapshotBytes(snap);
    if (bytes > this.#maxBytes && snap.rendered.size > 0) {
      snap.rendered.clear(); // too big to keep renderings as well: rebuilt per request
      bytes = snapshotBytes(snap);
    }
    this.#bytes += bytes - slot.bytes;
    slot.bytes = bytes;
    if (bytes > this.#maxBytes) return this.#drop(slot);
    this.#evict(slot);
    this.#idle?.arm();
  }

  /** Drops least recently used folders (never `keep`) until the bounds hold. */
  #evict(keep: Slot): void {
    for (const slot of [...this.#slots.values()]) {
      if (
        this.#slots.size <= this.#maxDirs && this.#entries <= this.#maxEntries &&
        this.#bytes <= this.#maxBytes
      ) return;
      if (slot !== keep) this.#drop(slot);
    }
  }

  /** Drops every folder (and its watcher) after a quiet period, then lets memory go back to the system. */
  #dropIdle(): void {
    if (this.#bytes <= this.#idleKeepBytes) return;
    // Largest first, down to `idleKeepBytes`; a read in progress keeps its slot (its result is about to be used).
    const bySize = [...this.#slots.values()].sort((a, b) => b.bytes - a.bytes);
    for (const slot of bySize) {
      if (this.#bytes > this.#idleKeepBytes && slot.pending === null) this.#drop(slot);
    }
    this.#idleDrops++;
    this.#onIdle();
  }

  #rememberSmall(real: string, stamp: DirStamp): void {
    if (this.#small.size >= SMALL_MEMO) this.#small.delete(this.#small.keys().next().value!);
    this.#small.set(real, stamp);
  }
}
