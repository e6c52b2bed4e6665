/**
 * A small in-memory cache of folder sizes, keyed by the folder's real path and the user's view of it (rules,
 * dot-file hiding, share base). Each entry holds a recursive watcher (lib/fs/watch.ts) made before its walk
 * began: any event below the folder drops the entry, so a change during the walk is never cached (queued
 * events are read before an entry is used or kept). Entries
 * also expire after `maxAgeMs` (changes inotify cannot see: other mounts, network file systems).
 */
import { log } from "../log.ts";
import type { FolderSize } from "../types.ts";
import { measureFolder, type MeasureOptions } from "./folder_size.ts";
import type { Confinement, ScopedPath } from "./gate.ts";
import { flushWatchEvents, type FolderWatch, watchFolder } from "./watch.ts";

/** Bounds of a {@link FolderSizeCache}. */
export interface FolderSizeCacheOptions {
  /** Most folders kept (each holds one watcher). Default 32. */
  maxFolders?: number;
  /** Default 10 minutes. */
  maxAgeMs?: number;
}

interface Slot {
  key: string;
  watcher: FolderWatch;
  /** Set by the first event (or the watcher's end). */
  changed: boolean;
  size: FolderSize | null;
  at: number;
}

/** The cache key part that depends on the user: what they may see. */
function viewOf(conf: Confinement): string {
  return JSON.stringify([conf.ruleBase, conf.hideDotfiles, conf.followExternal, conf.rules]);
}

/** Folder sizes, cached until something below the folder changes; dispose with {@link FolderSizeCache.close}. */
export class FolderSizeCache {
  readonly #maxFolders: number;
  readonly #maxAgeMs: number;
  /** Map order is recency order. */
  readonly #slots = new Map<string, Slot>();
  #closed = false;

  constructor(options: FolderSizeCacheOptions = {}) {
    this.#maxFolders = options.maxFolders ?? 32;
    this.#maxAgeMs = options.maxAgeMs ?? 600_000;
  }

  /** The size of a gate-checked folder: cached when still valid, else walked (and cached). */
  async measure(
    dir: ScopedPath,
    options: MeasureOptions = {},
  ): Promise<{ size: FolderSize; cached: boolean }> {
    if (this.#closed || !dir.stat?.isDirectory) {
      return { size: await measureFolder(dir, options), cached: false };
    }
    const key = `${dir.real}\0${viewOf(dir.confinement)}`;
    flushWatchEvents();
    const slot = this.#slots.get(key);
    if (slot && slot.size && !slot.changed && Date.now() - slot.at < this.#maxAgeMs) {
      this.#slots.delete(key);
      this.#slots.set(key, slot);
      return { size: slot.size, cached: true };
    }
    if (slot) this.#drop(slot);
    const fresh = this.#watch(key, dir.real);
    let size: FolderSize;
    try {
      size = await measureFolder(dir, options);
    } catch (err) {
      if (fresh) this.#drop(fresh);
      throw err;
    }
    flushWatchEvents();
    if (fresh && !fresh.changed && this.#slots.get(key) === fresh) {
      fresh.size = size;
      fresh.at = Date.now();
    } else if (fresh) this.#drop(fresh);
    return { size, cached: false };
  }

  /** Closes every watcher; later calls walk without caching. */
  close(): Promise<void> {
    this.#closed = true;
    for (const slot of [...this.#slots.values()]) this.#drop(slot);
    return Promise.resolve();
  }

  #watch(key: string, real: string): Slot | null {
    let slot: Slot | null = null;
    let watcher: FolderWatch;
    try {
      watcher = watchFolder(real, {
        recursive: true,
        // Any change below the folder (or the watcher's end) makes the walk's result stale.
        onEvent: () => slot !== null && this.#drop(slot),
        onEnd: (err) => {
          if (err !== null) log.debug(`folder sizes: watcher of "${real}" failed`, err);
          if (slot !== null) this.#drop(slot);
        },
      });
    } catch (err) {
      // Out of inotify watches, or no permission: measure without caching.
      log.debug(`folder sizes: cannot watch "${real}"`, err);
      return null;
    }
    slot = { key, watcher, changed: false, size: null, at: 0 };
    this.#slots.set(key, slot);
    for (const old of this.#slots.values()) {
      if (this.#slots.size <= this.#maxFolders) break;
      if (old !== slot) this.#drop(old);
    }
    return slot;
  }

  #drop(slot: Slot): void {
    if (this.#slots.get(slot.key) === slot) this.#slots.delete(slot.key);
    slot.changed = true;
    slot.watcher.close();
  }
}
