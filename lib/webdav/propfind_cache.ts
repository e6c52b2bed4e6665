/**
 * The encoded `<response>`s of a folder's children in a PROPFIND Depth 1 answer, kept with the folder's
 * listing snapshot (a WeakMap: a changed folder gets a new snapshot, and the old answers go with it). Only
 * answers that depend on nothing but the snapshot are kept: no symlinks among the entries (resolved per
 * request), no dead properties and no locks on any child. Answers are keyed by the request's properties, the
 * folder's href and the user's view of the folder (vpath, rules, dot-file hiding); a snapshot keeps up to
 * MAX_ANSWERS_PER_FOLDER of them, since clients ask differently (allprop, rclone's list, Windows' list) and
 * must not push each other's answers out. An answer costs 0.45-0.65 KB per entry, so all kept answers
 * together are bounded (least recently used out). One cache per app (AppDeps.propfindCache).
 */
import type { DirSnapshot } from "../fs/listing_snapshot.ts";

/** Default bound of all kept answers together. */
export const MAX_KEPT_BYTES = 160 * 1024 * 1024;
/** Most answers kept for one snapshot (different property lists or views of one folder). */
export const MAX_ANSWERS_PER_FOLDER = 4;

interface Kept {
  /** `snap.changes` when the answer was rendered (sub-directories refreshed since make it stale). */
  changes: number;
  chunks: Uint8Array[];
  /** Identifies the answer in the use order (also the unregister token). */
  token: object;
}

interface Slot {
  snap: WeakRef<DirSnapshot>;
  key: string;
  bytes: number;
}

/** Kept PROPFIND answers of one app, bounded in bytes. */
export class PropfindCache {
  /** Per snapshot: its answers by key, least recently used first. */
  readonly #kept = new WeakMap<DirSnapshot, Map<string, Kept>>();
  /** Kept answers of all snapshots, least recently used first. */
  readonly #order = new Map<object, Slot>();
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

  /** Drops one answer: from its snapshot's map and from the use order. */
  #drop(token: object): void {
    const slot = this.#order.get(token);
    if (slot === undefined) return;
    const snap = slot.snap.deref();
    const answers = snap === undefined ? undefined : this.#kept.get(snap);
    if (answers?.get(slot.key)?.token === token) {
      answers.delete(slot.key);
      if (answers.size === 0) this.#kept.delete(snap!);
    }
    this.#release(token);
  }

  /** The kept children of `snap` for `key`, or null. The chunks are shared: never modify them. */
  get(snap: DirSnapshot, key: string): Uint8Array[] | null {
    const answers = this.#kept.get(snap);
    const k = answers?.get(key);
    if (answers === undefined || k === undefined || k.changes !== snap.changes) return null;
    answers.delete(key);
    answers.set(key, k);
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
    let answers = this.#kept.get(snap);
    const old = answers?.get(key);
    if (old !== undefined) this.#drop(old.token);
    // Answers rendered before an in-place change of the snapshot (a sub-folder's facts) are stale.
    for (const a of [...answers?.values() ?? []]) if (a.changes !== changes) this.#drop(a.token);
    if (bytes > this.#budget) return;
    answers = this.#kept.get(snap);
    if (answers === undefined) this.#kept.set(snap, answers = new Map());
    for (const a of answers.values()) {
      if (answers.size < MAX_ANSWERS_PER_FOLDER) break;
      this.#drop(a.token);
    }
    const token = {};
    answers.set(key, { changes, chunks, token });
    this.#order.set(token, { snap: new WeakRef(snap), key, bytes });
    this.#collected.register(snap, token, token);
    this.#total += bytes;
    this.#evict();
  }

  /** Drops the least recently used answers until all fit in the budget. */
  #evict(): void {
    for (const oldest of this.#order.keys()) {
      if (this.#total <= this.#budget) return;
      this.#drop(oldest);
    }
  }

  /** Whether an answer is kept for `snap` (for tests). */
  has(snap: DirSnapshot, key?: string): boolean {
    const answers = this.#kept.get(snap);
    return answers !== undefined && (key === undefined || answers.has(key));
  }

  /** Sets the bound of all kept answers together (dropping what no longer fits); returns the bytes kept. */
  setBudget(bytes: number): number {
    this.#budget = bytes;
    this.#evict();
    return this.#total;
  }
}
