/**
 * Directory snapshots for fast listings: one readdir + lstat pass whose per-entry facts and ready-made JSON
 * fragments sit in flat arrays, so serving a listing only filters, orders and concatenates strings (no
 * Resource objects, no Dates). Nothing here depends on the user: rules, hiding and symlink targets are
 * applied per request by `listing_json.ts`, which is what lets `ListingCache` share a snapshot.
 */
import type { Sorting } from "../types.ts";
import { TEMP_PREFIX } from "./atomic.ts";
import {
  type DirRef,
  type DirStat,
  type EntryStat,
  fileType,
  openDirStat,
  S_IFDIR,
  S_IFLNK,
} from "./dir_stat.ts";
import { type Pin, pinObject, readDir, statSync } from "./floor.ts";
import { goFileMode } from "./file_info.ts";
import { ByteSink, fragmentOf, isAscii, TypeMemo } from "./listing_encode.ts";
import { indexComparator, type SortFacts } from "./sort.ts";
import { youngCollector } from "../young_gc.ts";

// Kind 0 (the arrays' initial value): an entry whose facts are in the snapshot (file, FIFO, device, socket).
/** A directory: facts in the snapshot, re-checked per request (its mtime changes without parent events). */
export const KIND_DIR = 1;
/** A symlink: only the name is kept; its target is resolved through the gate per request. */
export const KIND_LINK = 2;

/** Entries handled per synchronous chunk before yielding to other requests. */
const CHUNK = 5000;

/** Entries read or encoded between two young-generation collections (their garbage: lib/young_gc.ts). */
export const SCAN_GC_ENTRIES = 2048;

/** What identifies a directory's state cheaply (one stat). */
export interface DirStamp {
  dev: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** The stamp of a stat result. */
export function stampOf(info: Deno.FileInfo): DirStamp {
  return {
    dev: info.dev,
    ino: info.ino ?? 0,
    mtimeMs: info.mtime?.getTime() ?? 0,
    ctimeMs: info.ctime?.getTime() ?? 0,
  };
}

/** True when two stamps describe the same, unchanged directory. */
export function isSameStamp(a: DirStamp, b: DirStamp): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** The identity of the directory a stamp was taken of (`dev:ino`). */
export function inodeKey(stamp: DirStamp): string {
  return `${stamp.dev}:${stamp.ino}`;
}

/** True when two stamps are of the same directory (changed or not). */
export function isSameInode(a: DirStamp, b: DirStamp): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** A directory's changes within this many ms of its read cannot be told apart by mtime. */
export const RACY_MS = 50;

/** True when the snapshot's folder changed too close to its read for its stamp to show later changes. */
export function isRacy(snap: DirSnapshot): boolean {
  return Math.max(snap.stamp.mtimeMs, snap.stamp.ctimeMs) >= snap.scannedAt - RACY_MS;
}

/** One directory's entries in read order (parallel arrays indexed by entry). */
export interface DirSnapshot {
  readonly real: string;
  /** The files root the folder was read beneath (the disk floor's anchor, see dir_stat.ts DirRef). */
  readonly anchor: string;
  /** The directory's stamp taken before it was read. */
  readonly stamp: DirStamp;
  /** `Date.now()` when the read (or, for a patched snapshot, the patch) started. */
  readonly scannedAt: number;
  /** `Date.now()` when the last full read started (patches keep it: it bounds staleness, see ListingCache). */
  readonly fullScannedAt: number;
  /** Types of files with unknown extensions were sniffed from their first bytes. */
  readonly readHeaders: boolean;
  readonly names: string[];
  readonly kinds: Uint8Array;
  /** 1 where the name starts with a dot. */
  readonly dots: Uint8Array;
  readonly sizes: Float64Array;
  readonly mtimes: Float64Array;
  /** Go FileMode numbers. */
  readonly modes: Float64Array;
  /**
   * Each entry's inode number (`d_ino` as read; lstat's for patched entries): with its name, it tells a
   * later pass over the folder which entries are new, gone or replaced. Null when the folder was read
   * without getdents64 (no libc).
   */
  readonly inos: Float64Array | null;
  /**
   * UTF-8 of each item's JSON after the directory part of its path (`name","name":...}`), back to back in
   * read order: entry i is `fragments[offsets[i]..offsets[i+1]]` (empty for links). One buffer instead of
   * 100k strings: copying from it is ~10x faster than joining scattered strings.
   */
  readonly fragments: Uint8Array;
  readonly offsets: Uint32Array;
  /** Fragments that changed after the read (refreshed sub-directories), by entry. */
  readonly replaced: Map<number, Uint8Array>;
  /** Indices of KIND_DIR entries. */
  readonly dirs: number[];
  readonly linkCount: number;
  /** Non-link indices per order key (see {@link orderOf}), computed on first use. */
  readonly orders: Map<string, Uint32Array>;
  /** Encoded items per (sorting, view), kept by the listing renderer; cleared when an entry changes. */
  readonly rendered: Map<string, RenderedItems>;
  /** Bumped when entries change in place (refreshed sub-directories): renderings kept elsewhere are stale. */
  changes: number;
}

/** The `items` array of a listing as UTF-8 without its brackets, in chunks, with its counts. */
export interface RenderedItems {
  chunks: Uint8Array<ArrayBuffer>[];
  count: number;
  numDirs: number;
}

const encoder = new TextEncoder();

function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A directory's entries in read order, but for our own in-flight temp files (not user content). */
interface Listing {
  names: string[];
  /** 1 where the entry is a symlink. */
  links: Uint8Array;
  /** `d_ino` of each entry; null when read through Deno. */
  inos: number[] | null;
  /** The entries can be lstat'ed by index (`DirStat.lstatListed()`), from their names' bytes as read. */
  byIndex: boolean;
}

async function readEntries(pin: Pin, stat: DirStat): Promise<Listing> {
  // libc's getdents64 through the open directory: a few calls for 10k names, no entry objects, no round
  // trips to Deno's blocking threads (a fifth of a cold 10k listing went there).
  const listed = stat.list();
  if (listed !== null) {
    const links = new Uint8Array(listed.names.length);
    for (const i of listed.links) links[i] = 1;
    return { names: listed.names, links, inos: listed.inos, byIndex: true };
  }
  // The async readDir: for 100k entries the sync one peaks ~60 MiB higher (measured in this runtime).
  const names: string[] = [], kinds: number[] = [];
  for await (const e of readDir(pin)) {
    names.push(e.name);
    kinds.push(e.isSymlink ? 1 : 0);
  }
  return { names, links: Uint8Array.from(kinds), inos: null, byIndex: false };
}

/** Reads a directory into a snapshot (left out: entries that vanish while read, our own temp files). */
export async function scanDirectory(
  at: DirRef,
  options: { readHeaders: boolean; signal?: AbortSignal },
): Promise<DirSnapshot> {
  const real = at.real;
  let stamp: DirStamp, scannedAt: number, stat: DirStat, all: Listing;
  {
    // Through the disk floor: a folder swapped for a link since the gate's check is refused, not read.
    using pin = pinObject(at.anchor, real);
    stamp = stampOf(statSync(pin));
    scannedAt = Date.now();
    stat = openDirStat(at);
    try {
      all = await readEntries(pin, stat);
    } catch (err) {
      stat.close();
      throw err;
    }
  }
  const collect = youngCollector(SCAN_GC_ENTRIES);
  const n = all.names.length;
  const listed = all.names, linked = all.links, dinos = all.inos;
  // The facts of each lstat land in this one object (no object per entry).
  const facts = stat.facts;
  const names: string[] = [];
  const kinds = new Uint8Array(n);
  const sizes = new Float64Array(n);
  const mtimes = new Float64Array(n);
  const modes = new Float64Array(n);
  const inos = new Float64Array(n);
  const dots = new Uint8Array(n);
  const offsets = new Uint32Array(n + 1);
  const sink = new ByteSink(n * 200);
  const types = new TypeMemo();
  try {
    for (let start = 0; start < n; start += CHUNK) {
      if (start > 0) {
        await yieldToLoop();
        options.signal?.throwIfAborted();
      }
      for (let e = start; e < Math.min(n, start + CHUNK); e++) {
        const name = listed[e];
        const isSymlink = linked[e] === 1;
        if (!isSymlink && name.startsWith(TEMP_PREFIX)) continue;
        let info: EntryStat | null = null;
        if (!isSymlink) {
          info = all.byIndex ? (stat.lstatListed(e) ? facts : null) : stat.lstat(name);
          // Entries that cannot be stat'ed (vanished, broken mounts) are left out.
          if (info === null) continue;
        }
        const i = names.length;
        names.push(name);
        inos[i] = dinos === null ? 0 : dinos[e];
        offsets[i] = sink.length;
        if (name.charCodeAt(0) === 46) dots[i] = 1;
        const type = info === null ? S_IFLNK : fileType(info.mode);
        if (info === null || type === S_IFLNK) {
          kinds[i] = KIND_LINK;
          continue;
        }
        const size = info.size, mtimeMs = info.mtimeMs, mode = goFileMode(info.mode);
        let itemType = "";
        if (type === S_IFDIR) {
          kinds[i] = KIND_DIR;
        } else {
          itemType = types.of(name, { size, type, readHeaders: options.readHeaders, stat });
        }
        sizes[i] = size;
        mtimes[i] = mtimeMs;
        modes[i] = mode;
        // The fragment's only non-ASCII characters can come from the name.
        sink.append(fragmentOf(name, size, mtimeMs, mode, itemType), { ascii: isAscii(name) });
        // Small batches: their strings die young, and are collected soon.
        if ((i & 511) === 511) {
          sink.flush();
          collect(512);
        }
      }
      sink.flush();
    }
  } finally {
    stat.close();
  }
  const m = names.length;
  offsets[m] = sink.length;
  return makeSnapshot({
    real,
    anchor: at.anchor,
    stamp,
    scannedAt,
    fullScannedAt: scannedAt,
    readHeaders: options.readHeaders,
    names,
    kinds: kinds.subarray(0, m),
    dots: dots.subarray(0, m),
    sizes: sizes.subarray(0, m),
    mtimes: mtimes.subarray(0, m),
    modes: modes.subarray(0, m),
    inos: dinos === null ? null : inos.subarray(0, m),
    // Keep the buffer itself when little of it is unused: a copy would briefly double the largest allocation.
    fragments: sink.buf.length - sink.length <= sink.buf.length / 8
      ? sink.buf.subarray(0, sink.length)
      : sink.buf.slice(0, sink.length),
    offsets: offsets.subarray(0, m + 1),
  });
}

/** What a snapshot is made of; the rest follows from it (see {@link makeSnapshot}). */
export type SnapshotFacts = Omit<
  DirSnapshot,
  "dirs" | "linkCount" | "replaced" | "orders" | "rendered" | "changes"
>;

/** A snapshot of `facts`: its sub-directories and link count taken from the kinds, nothing replaced or kept yet. */
export function makeSnapshot(facts: SnapshotFacts): DirSnapshot {
  const dirs: number[] = [];
  let linkCount = 0;
  for (let i = 0; i < facts.kinds.length; i++) {
    if (facts.kinds[i] === KIND_DIR) dirs.push(i);
    else if (facts.kinds[i] === KIND_LINK) linkCount++;
  }
  return {
    ...facts,
    dirs,
    linkCount,
    replaced: new Map(),
    orders: new Map(),
    rendered: new Map(),
    changes: 0,
  };
}

/**
 * Re-reads the facts of the snapshot's sub-directories (their mtime moves when their own content changes,
 * which the parent's watcher does not see) and updates changed ones in place. False when one vanished or is
 * no longer a directory: the snapshot must then be read again.
 */
export function refreshDirs(snap: DirSnapshot): boolean {
  if (snap.dirs.length === 0) return true;
  let stat: DirStat;
  try {
    stat = openDirStat(snap);
  } catch {
    return false;
  }
  let changed = false;
  try {
    for (const i of snap.dirs) {
      const info = stat.lstat(snap.names[i]);
      if (info === null || fileType(info.mode) !== S_IFDIR) return false;
      const { size, mtimeMs } = info, mode = goFileMode(info.mode);
      if (size === snap.sizes[i] && mtimeMs === snap.mtimes[i] && mode === snap.modes[i]) continue;
      snap.sizes[i] = size;
      snap.mtimes[i] = mtimeMs;
      snap.modes[i] = mode;
      snap.replaced.set(i, encoder.encode(fragmentOf(snap.names[i], size, mtimeMs, mode, "")));
      changed = true;
    }
  } finally {
    stat.close();
  }
  if (changed) {
    for (const key of [...snap.orders.keys()]) if (!key.startsWith("name")) snap.orders.delete(key);
    snap.rendered.clear();
    snap.changes++;
  }
  return true;
}

/** The sort facts of entry `i` (links have none in the snapshot). */
export function factsOf(snap: DirSnapshot, i: number): SortFacts {
  return {
    name: snap.names[i],
    isDir: snap.kinds[i] === KIND_DIR,
    size: snap.sizes[i],
    mtimeMs: snap.mtimes[i],
  };
}

function orderKey(sorting: Sorting): string {
  switch (sorting.by) {
    case "name":
    case "size":
    case "modified":
      return `${sorting.by}:${sorting.asc}`;
    default:
      return sorting.asc ? "name:true" : "bytes";
  }
}

/** The sorting an order key of {@link orderOf} stands for (the inverse of `orderKey`). */
export function sortingOfKey(key: string): Sorting {
  if (key === "bytes") return { by: "", asc: false };
  const [by, asc] = key.split(":");
  return { by, asc: asc === "true" };
}

/** The non-link entries in listing order (a stable sort of read order); cached per order in the snapshot. */
export function orderOf(snap: DirSnapshot, sorting: Sorting): Uint32Array {
  const key = orderKey(sorting);
  let order = snap.orders.get(key);
  if (order === undefined) {
    const indices: number[] = [];
    for (let i = 0; i < snap.names.length; i++) if (snap.kinds[i] !== KIND_LINK) indices.push(i);
    indices.sort(indexComparator(sorting, {
      names: snap.names,
      isDir: (i) => snap.kinds[i] === KIND_DIR,
      sizes: snap.sizes,
      mtimes: snap.mtimes,
    }));
    order = Uint32Array.from(indices);
    snap.orders.set(key, order);
  }
  return order;
}

/** Rough bytes a name costs in the V8 heap besides its characters (string header, array slot). */
const NAME_OVERHEAD = 32;

/** The part of {@link snapshotBytes} that never changes, by snapshot (counted once: it walks every name). */
const fixedBytes = new WeakMap<DirSnapshot, number>();

/** Bytes a snapshot holds (its arrays, names, orders and kept renderings): what the cache budgets. */
export function snapshotBytes(snap: DirSnapshot): number {
  let bytes = fixedBytes.get(snap);
  if (bytes === undefined) {
    bytes = snap.fragments.byteLength + snap.offsets.byteLength + snap.kinds.byteLength +
      // Inode numbers, and the entry ids a patch makes from them (8 bytes per entry, listing_patch.ts).
      snap.dots.byteLength + (snap.inos === null ? 0 : snap.inos.byteLength + snap.inos.length * 8) +
      snap.sizes.byteLength + snap.mtimes.byteLength +
      snap.modes.byteLength +
      snap.dirs.length * 8;
    for (const name of snap.names) bytes += name.length + NAME_OVERHEAD;
    fixedBytes.set(snap, bytes);
  }
  for (const f of snap.replaced.values()) bytes += f.byteLength;
  for (const order of snap.orders.values()) bytes += order.byteLength;
  bytes += renderedBytes(snap);
  return bytes;
}

/** Bytes of a snapshot's kept renderings. */
export function renderedBytes(snap: DirSnapshot): number {
  let bytes = 0;
  for (const items of snap.rendered.values()) for (const c of items.chunks) bytes += c.byteLength;
  return bytes;
}
