/**
 * The encoded `<D:response>`s of a folder's children in a PROPFIND Depth 1 answer, kept with the folder's
 * listing snapshot (a WeakMap: a changed folder gets a new snapshot, and the old answer goes with it). Only
 * answers that depend on nothing but the snapshot are kept: no symlinks among the entries (resolved per
 * request), no dead properties and no locks on any child. One answer per snapshot, keyed by the request's
 * properties, the folder's href and the user's view of the folder (vpath, rules, dot-file hiding). An answer
 * costs 0.5-0.8 KB per entry, so all kept answers together are bounded (least recently used out).
 */
import type { DirSnapshot } from "../fs/listing_snapshot.ts";

/** Default bound of all kept answers together. */
export const MAX_KEPT_BYTES = 160 * 1024 * 1024;

interface Kept {
  key: string;
  /** `snap.changes` when the answer was rendered (sub-directories refreshed since make it stale). */
  changes: number;
  chunks: Uint8Array[];
  bytes: number;
  /** Identifies the answer in the use order (also the unregister token). */
  token: object;
}

const kept = new WeakMap<DirSnapshot, Kept>();
/** Kept answers, least recently used first. */
const order = new Map<object, { snap: WeakRef<DirSnapshot>; bytes: number }>();
let total = 0;
let budget = MAX_KEPT_BYTES;
const collected = new FinalizationRegistry<object>((token) => release(token));

function release(token: object): void {
  const slot = order.get(token);
  if (slot === undefined) return;
  order.delete(token);
  total -= slot.bytes;
  collected.unregister(token);
}

/** The kept children of `snap` for `key`, or null. The chunks are shared: never modify them. */
export function keptChildren(snap: DirSnapshot, key: string): Uint8Array[] | null {
  const k = kept.get(snap);
  if (k === undefined || k.key !== key || k.changes !== snap.changes) return null;
  const slot = order.get(k.token);
  if (slot !== undefined) {
    order.delete(k.token);
    order.set(k.token, slot);
  }
  return k.chunks;
}

/** Keeps the children of `snap` rendered while `snap.changes` was `changes` (dropped if it moved since). */
export function keepChildren(snap: DirSnapshot, key: string, changes: number, chunks: Uint8Array[]): void {
  if (snap.changes !== changes) return;
  const bytes = chunks.reduce((n, c) => n + c.length, 0);
  const old = kept.get(snap);
  if (old !== undefined) {
    kept.delete(snap);
    release(old.token);
  }
  if (bytes > budget) return;
  const token = {};
  kept.set(snap, { key, changes, chunks, bytes, token });
  order.set(token, { snap: new WeakRef(snap), bytes });
  collected.register(snap, token, token);
  total += bytes;
  evict();
}

/** Drops the least recently used answers until all fit in the budget. */
function evict(): void {
  for (const [oldest, slot] of order) {
    if (total <= budget) return;
    const s = slot.snap.deref();
    if (s !== undefined) kept.delete(s);
    release(oldest);
  }
}

/** Whether an answer is kept for `snap` (for tests). */
export function isKept(snap: DirSnapshot): boolean {
  return kept.has(snap);
}

/** Sets the bound of all kept answers together (dropping what no longer fits); returns the bytes kept. */
export function setKeptBudget(bytes: number): number {
  budget = bytes;
  evict();
  return total;
}
