/**
 * The encoded `<D:response>`s of a folder's children in a PROPFIND Depth 1 answer, kept with the folder's
 * listing snapshot (a WeakMap: a changed folder gets a new snapshot, and the old answer goes with it). Only
 * answers that depend on nothing but the snapshot are kept: no symlinks among the entries (resolved per
 * request), no dead properties and no locks on any child. One answer per snapshot, keyed by the request's
 * properties, the folder's href and the user's view of the folder (vpath, rules, dot-file hiding): about
 * 0.6 KiB per entry, bounded by the listing cache's entry budget.
 */
import type { DirSnapshot } from "../fs/listing_snapshot.ts";

interface Kept {
  key: string;
  /** `snap.changes` when the answer was rendered (sub-directories refreshed since make it stale). */
  changes: number;
  chunks: Uint8Array[];
}

const kept = new WeakMap<DirSnapshot, Kept>();

/** The kept children of `snap` for `key`, or null. The chunks are shared: never modify them. */
export function keptChildren(snap: DirSnapshot, key: string): Uint8Array[] | null {
  const k = kept.get(snap);
  return k !== undefined && k.key === key && k.changes === snap.changes ? k.chunks : null;
}

/** Keeps the children of `snap` rendered while `snap.changes` was `changes` (dropped if it moved since). */
export function keepChildren(snap: DirSnapshot, key: string, changes: number, chunks: Uint8Array[]): void {
  if (snap.changes === changes) kept.set(snap, { key, changes, chunks });
}

/** Whether an answer is kept for `snap` (for tests). */
export function isKept(snap: DirSnapshot): boolean {
  return kept.has(snap);
}
