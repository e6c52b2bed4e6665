/**
 * Patching a directory snapshot (listing_snapshot.ts) after a change instead of reading the folder again:
 * the changed entries are read again (lstat, sniffing, their JSON), and the result is a new snapshot in
 * which the other entries keep their facts, their fragment bytes and their place in the cached orders. The
 * old snapshot is left as it was (renderings in progress may still use it). Which entries changed: those the
 * watcher's events named, and, when the folder's own stamp moved (or its read was racy), every entry that an
 * lstat of all of them (in one getdents64 pass over the raw names) finds added, removed, replaced or not as
 * the snapshot has it: as exact as a full read, without decoding, encoding or allocating per entry.
 *
 * Entries take the folder's read order as that getdents64 pass gave it, so a patched snapshot lists like a
 * fresh read, even among entries whose sort keys are equal and in WebDAV answers (read order). Without a pass
 * (writes in place only) no entry comes or goes, and each keeps its place; an entry created between the pass
 * and its lstat goes last.
 */
import type { Sorting } from "../types.ts";
import { TEMP_PREFIX } from "./atomic.ts";
import {
  type DirStat,
  entryIdOf,
  type EntryStat,
  fileType,
  openDirStat,
  S_IFDIR,
  S_IFLNK,
} from "./dir_stat.ts";
import { goFileMode } from "./file_info.ts";
import { fragmentOf, TypeMemo } from "./listing_encode.ts";
import {
  type DirSnapshot,
  type DirStamp,
  factsOf,
  isRacy,
  isSameStamp,
  KIND_DIR,
  KIND_LINK,
  makeSnapshot,
  sortingOfKey,
} from "./listing_snapshot.ts";
import { comparatorFor } from "./sort.ts";

const encoder = new TextEncoder();

/** Entry ids (dir_stat.ts's `entryId()`) of snapshots, made on their first comparison with the folder. */
const idCache = new WeakMap<DirSnapshot, Float64Array>();

/** The entry id of each entry of `snap` (null when it was read without inode numbers). */
export function idsOf(snap: DirSnapshot): Float64Array | null {
  const inos = snap.inos;
  if (inos === null) return null;
  let ids = idCache.get(snap);
  if (ids === undefined) {
    ids = new Float64Array(inos.length);
    for (let i = 0; i < inos.length; i++) ids[i] = entryIdOf(snap.names[i], inos[i]);
    idCache.set(snap, ids);
  }
  return ids;
}

/**
 * The names that differ between a snapshot and its folder now: one getdents64 pass that lstat's every entry
 * (as a full read would, so nothing changed before this pass is missed) but decodes and encodes nothing
 * for entries as the snapshot has them. Null when the snapshot cannot be compared (no inode numbers).
 */
export function changedNames(
  snap: DirSnapshot,
  stat: DirStat,
): { names: Set<string>; order: (number | string)[] } | null {
  const ids = idsOf(snap);
  if (ids === null) return null;
  const known = new Map<number, number>();
  for (let i = 0; i < ids.length; i++) known.set(ids[i], i);
  const diff = stat.diff(known, (i, facts) => facts !== null && isAsRead(snap, i, facts));
  if (diff === null) return null;
  const names = new Set(diff.changed);
  if (diff.seen.size < ids.length) {
    for (let i = 0; i < ids.length; i++) if (!diff.seen.has(ids[i])) names.add(snap.names[i]);
  }
  return { names, order: diff.order };
}

/**
 * `snap` patched to its folder as it is now (`now`: the folder's stamp, just taken): the `changed` names are
 * read again, and so are the entries added, removed, replaced or changed since `snap`'s read unless its stamp
 * shows that no entry was added, removed or renamed (the same and not racy). Null when more than `max` names
 * changed or the folder cannot be compared (read without getdents64): it must then be read again.
 */
export function patchToNow(
  snap: DirSnapshot,
  changed: Set<string>,
  now: DirStamp,
  max: number,
): DirSnapshot | null {
  const startedAt = Date.now();
  let stat: DirStat;
  try {
    stat = openDirStat(snap);
  } catch {
    // Gone, or swapped for a link since it was read (the floor refuses it): a full read says which.
    return null;
  }
  try {
    let order: (number | string)[] | undefined;
    if (!isSameStamp(snap.stamp, now) || isRacy(snap)) {
      const found = changedNames(snap, stat);
      if (found === null) return null;
      for (const name of found.names) changed.add(name);
      if (changed.size > max) return null;
      order = found.order;
    }
    return patchSnapshot(snap, changed, stat, { stamp: now, startedAt }, order);
  } finally {
    stat.close();
  }
}

/** True when lstat `facts` give entry `i` of `snap` as it is there (kind, size, time and mode). */
function isAsRead(snap: DirSnapshot, i: number, facts: EntryStat): boolean {
  const type = fileType(facts.mode);
  if (type === S_IFLNK) return snap.kinds[i] === KIND_LINK;
  return snap.kinds[i] === (type === S_IFDIR ? KIND_DIR : 0) && snap.sizes[i] === facts.size &&
    snap.mtimes[i] === facts.mtimeMs && snap.modes[i] === goFileMode(facts.mode);
}

/** Where a patch comes from: the folder's stamp and the time taken before the changed names were read. */
export interface PatchStart {
  stamp: DirStamp;
  startedAt: number;
}

interface Entry {
  name: string;
  info: EntryStat | null;
  kind: number;
  fragment: Uint8Array;
}

/**
 * A new snapshot of `snap`'s folder in which the entries named in `changed` are read again through `stat`
 * (added, updated or left out as they are now) and every other entry is as in `snap`. `order` is the folder's
 * read order as a getdents64 pass gave it (snapshot indices of unchanged entries, names of the others); without
 * it entries keep their place and new ones go last.
 */
export function patchSnapshot(
  snap: DirSnapshot,
  changed: ReadonlySet<string>,
  stat: DirStat,
  start: PatchStart,
  order?: readonly (number | string)[],
): DirSnapshot {
  const fresh = new Map<string, Entry | null>();
  const types = new TypeMemo();
  for (const name of changed) fresh.set(name, readEntry(name, stat, snap.readHeaders, types));
  if (isUnchanged(snap, fresh)) {
    // Events of changes already patched (or undone): the same entries, orders and renderings, stamped now.
    const same: DirSnapshot = { ...snap, stamp: start.stamp, scannedAt: start.startedAt };
    const ids = idCache.get(snap);
    if (ids !== undefined) idCache.set(same, ids);
    return same;
  }
  const n = snap.names.length;
  // New index of each old entry kept as it was (-1: read again or gone), the old index of each new entry (-1:
  // read again), and the new indices of the entries read again.
  const remap = new Int32Array(n).fill(-1);
  const oldOf: number[] = [];
  const names: string[] = [];
  const placed: number[] = [];
  const entries: (Entry | null)[] = [];
  const keep = (i: number) => {
    if (remap[i] >= 0) return;
    remap[i] = names.length;
    oldOf.push(i);
    names.push(snap.names[i]);
    entries.push(null);
  };
  const place = (name: string) => {
    const entry = fresh.get(name);
    if (entry === undefined) return;
    fresh.delete(name);
    if (entry === null) return;
    placed.push(names.length);
    oldOf.push(-1);
    names.push(name);
    entries.push(entry);
  };
  if (order === undefined) {
    for (let i = 0; i < n; i++) {
      if (fresh.has(snap.names[i])) place(snap.names[i]);
      else keep(i);
    }
  } else {
    for (const item of order) {
      if (typeof item === "string") place(item);
      else if (fresh.has(snap.names[item])) place(snap.names[item]);
      else keep(item);
    }
  }
  // Changed names the pass did not meet (created after it, or no pass): last.
  for (const name of [...fresh.keys()]) place(name);
  const m = names.length;
  const kinds = new Uint8Array(m), dots = new Uint8Array(m);
  const sizes = new Float64Array(m), mtimes = new Float64Array(m), modes = new Float64Array(m);
  const inos = snap.inos === null ? null : new Float64Array(m);
  const oldIds = idCache.get(snap);
  const ids = oldIds === undefined || inos === null ? null : new Float64Array(m);
  const offsets = new Uint32Array(m + 1);
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const j = remap[i];
    if (j < 0) continue;
    kinds[j] = snap.kinds[i];
    dots[j] = snap.dots[i];
    sizes[j] = snap.sizes[i];
    mtimes[j] = snap.mtimes[i];
    modes[j] = snap.modes[i];
    if (inos !== null) inos[j] = snap.inos![i];
    if (ids !== null) ids[j] = oldIds![i];
    bytes += snap.replaced.get(i)?.length ?? snap.offsets[i + 1] - snap.offsets[i];
  }
  for (const j of placed) {
    const e = entries[j]!;
    kinds[j] = e.kind;
    dots[j] = e.name.startsWith(".") ? 1 : 0;
    if (inos !== null) inos[j] = e.info!.ino;
    if (ids !== null) ids[j] = entryIdOf(e.name, e.info!.ino);
    if (e.kind !== KIND_LINK) {
      const info = e.info!;
      sizes[j] = info.size;
      mtimes[j] = info.mtimeMs;
      modes[j] = goFileMode(info.mode);
    }
    bytes += e.fragment.length;
  }
  const fragments = new Uint8Array(bytes);
  let at = 0;
  // Old fragments are copied in runs: consecutive kept entries are back to back in the old buffer too.
  let runFrom = -1, runTo = -1;
  const flush = () => {
    if (runFrom < 0) return;
    fragments.set(snap.fragments.subarray(runFrom, runTo), at);
    at += runTo - runFrom;
    runFrom = -1;
  };
  for (let j = 0; j < m; j++) {
    offsets[j] = at + (runFrom < 0 ? 0 : runTo - runFrom);
    const e = entries[j];
    if (e !== null) {
      flush();
      fragments.set(e.fragment, at);
      at += e.fragment.length;
      continue;
    }
    const old = oldOf[j];
    const replaced = snap.replaced.get(old);
    if (replaced !== undefined) {
      flush();
      fragments.set(replaced, at);
      at += replaced.length;
    } else if (runFrom >= 0 && runTo === snap.offsets[old]) {
      runTo = snap.offsets[old + 1];
    } else {
      flush();
      runFrom = snap.offsets[old];
      runTo = snap.offsets[old + 1];
    }
  }
  flush();
  offsets[m] = at;
  const patched = makeSnapshot({
    real: snap.real,
    anchor: snap.anchor,
    stamp: start.stamp,
    scannedAt: start.startedAt,
    fullScannedAt: snap.fullScannedAt,
    readHeaders: snap.readHeaders,
    names,
    kinds,
    dots,
    sizes,
    mtimes,
    modes,
    inos,
    fragments,
    offsets,
  });
  if (ids !== null) idCache.set(patched, ids);
  // Kept entries in their old relative order: the kept orders stay sorted, with the changed ones inserted.
  // (Otherwise the folder's read order changed: orders are computed again when needed.)
  let last = -1, monotone = true;
  for (const i of oldOf) {
    if (i < 0) continue;
    if (i < last) monotone = false;
    last = i;
  }
  for (const [key, kept] of monotone ? snap.orders : []) {
    patched.orders.set(key, patchOrder(patched, kept, remap, placed, sortingOfKey(key)));
  }
  return patched;
}

/** True when every entry in `fresh` reads as `snap` has it, and every name `snap` lacks is still absent. */
function isUnchanged(snap: DirSnapshot, fresh: Map<string, Entry | null>): boolean {
  let present = 0, matched = 0;
  for (const e of fresh.values()) if (e !== null) present++;
  for (let i = 0; i < snap.names.length && matched < fresh.size; i++) {
    const e = fresh.get(snap.names[i]);
    if (e === undefined) continue;
    matched++;
    if (e === null || e.kind !== snap.kinds[i]) return false;
    if (snap.inos !== null && snap.inos[i] !== e.info!.ino) return false;
    if (e.kind === KIND_LINK) continue;
    const old = snap.replaced.get(i) ?? snap.fragments.subarray(snap.offsets[i], snap.offsets[i + 1]);
    if (old.length !== e.fragment.length) return false;
    for (let k = 0; k < old.length; k++) if (old[k] !== e.fragment[k]) return false;
  }
  return matched === present;
}

/** The changed entry `name` as it is now; null when it is gone or not listed (our own temp files). */
function readEntry(name: string, stat: DirStat, readHeaders: boolean, types: TypeMemo): Entry | null {
  const info = stat.lstat(name);
  if (info === null) return null;
  const type = fileType(info.mode);
  if (type === S_IFLNK) return { name, info, kind: KIND_LINK, fragment: new Uint8Array(0) };
  if (name.startsWith(TEMP_PREFIX)) return null;
  const itemType = type === S_IFDIR ? "" : types.of(name, { size: info.size, type, readHeaders, stat });
  const fragment = encoder.encode(fragmentOf(name, info.size, info.mtimeMs, goFileMode(info.mode), itemType));
  return { name, info, kind: type === S_IFDIR ? KIND_DIR : 0, fragment };
}

/**
 * An order of the old snapshot carried over: kept entries in their old order (renumbered), changed ones
 * inserted where a stable sort of the new read order puts them (ties broken by index, as `orderOf()` does).
 */
function patchOrder(
  snap: DirSnapshot,
  order: Uint32Array,
  remap: Int32Array,
  placed: number[],
  sorting: Sorting,
): Uint32Array {
  const compare = comparatorFor(sorting);
  const facts = (i: number) => factsOf(snap, i);
  const cmp = (x: number, y: number) => compare(facts(x), facts(y)) || x - y;
  const inserts = placed.filter((j) => snap.kinds[j] !== KIND_LINK).sort(cmp);
  let kept = 0;
  for (const i of order) if (remap[i] >= 0) kept++;
  const out = new Uint32Array(kept + inserts.length);
  const base = new Uint32Array(kept);
  let k = 0;
  for (const i of order) if (remap[i] >= 0) base[k++] = remap[i];
  // Merge: each insert goes before the first kept entry that sorts after it.
  let o = 0, b = 0;
  for (const j of inserts) {
    let lo = b, hi = kept;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(base[mid], j) > 0) hi = mid;
      else lo = mid + 1;
    }
    out.set(base.subarray(b, lo), o);
    o += lo - b;
    b = lo;
    out[o++] = j;
  }
  out.set(base.subarray(b), o);
  return out;
}
