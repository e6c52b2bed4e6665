/**
 * The encoded `<response>`s of a folder's children in a PROPFIND Depth 1 answer, kept with the folder's
 * listing snapshot (a WeakMap: a changed folder gets a new snapshot, and the old answer goes with it). Only
 * answers that depend on nothing but the snapshot are kept: no symlinks among the entries (resolved per
 * request), no dead properties and no locks on any child. One answer per snapshot, keyed by the request's
 * properties, the folder's href and the user's view of the folder (vpath, rules, dot-file hiding). An answer
 * costs 0.5-0.8 KB per entry, so all kept answers together are bounded (least recently used out). One cache
 * per app (AppDeps.propfindCache).
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

/** Kept PROPFIND answers of one app, bounded in bytes. */
export class PropfindCache {
  readonly #kept = new WeakMap<DirSnapshot, Kept>();
  /** Kept answers, least recently used first. */
  readonly #order = new Map<object, { snap: WeakRef<DirSnapshot>; bytes: number }>();
  #total = 0;
  #budget: number;
  readonly #collected = new FinalizationRegistry<object>((token) => this.#release(token));

  constructor(budget = MAX_KEPT_BYTES) {
    this.#budget = budget;
  }

  #release(token: object): void {
    const slot = this.#order.get(token);
    if (slot === undefined) return;
    this.#order.delete(token);
    this.#total -= slot.bytes;
    this.#collected.unregister(token);
  }

  /** The kept children of `snap` for `key`, or null. The chunks are shared: never modify them. */
  get(snap: DirSnapshot, key: string): Uint8Array[] | null {
    const k = this.#kept.get(snap);
    if (k === undefined || k.key !== key || k.changes !== snap.changes) return null;
    const slot = this.#order.get(k.token);
    if (slot !== undefined) {
      this.#order.delete(k.token);
      this.#order.set(k.token, slot);
    }
    return k.chunks;
  }

  /** Keeps the children of `snap` rendered while `snap.changes` was `changes` (dropped if it moved since). */
  keep(snap: DirSnapshot, key: string, changes: number, chunks: Uint8Array[]): void {
    if (snap.changes !== changes) return;
    const bytes = chunks.reduce((n, c) => n + c.length, 0);
    const old = this.#kept.get(snap);
    if (old !== undefined) {
      this.#kept.delete(snap);
      this.#release(old.token);
    }
    if (bytes > this.#budget) return;
    const token = {};
    this.#kept.set(snap, { key, changes, chunks, bytes, token });
    this.#order.set(token, { snap: new WeakRef(snap), bytes });
    this.#collected.register(snap, token, token);
    this.#total += bytes;
    this.#evict();
  }

  /** Drops the least recently used answers until all fit in the budget. */
  #evict(): void {
    for (const [oldest, slot] of this.#order) {
      if (this.#total <= this.#budget) return;
      const s = slot.snap.deref();
      if (s !== undefined) this.#kept.delete(s);
      this.#release(oldest);
    }
  }

  /** Whether an answer is kept for `snap` (for tests). */
  has(snap: DirSnapshot): boolean {
    return this.#kept.has(snap);
  }

  /** Sets the bound of all kept answers together (dropping what no longer fits); returns the bytes kept. */
  setBudget(bytes: number): number {
    this.#budget = bytes;
    this.#evict();
    return this.#total;
  }
}
