/**
 * The upload lock: one KV lease per target (`keys.uploadLock`) that keeps two writers (PATCH, DELETE,
 * completion, sweep) off the same upload, and how this process holds it.
 *
 * Taking a KV lease is a KV commit, and a commit is an fsync that queues behind the page-cache writeback of
 * the upload itself (measured: 20 ms median, 90 ms p90 while a large file is being written). So after a
 * successful chunk the lease is parked instead of released: the next chunk of the same upload on this
 * instance reuses it without touching KV, and renews it only when less than half of its TTL is left. A parked
 * lease simply runs out (LOCK_TTL_MS) if no chunk follows; other instances wait that long at most (tus
 * clients retry 423). Nothing here keeps timers running between requests, except {@link keepUploadLock}
 * while one long chunk streams. Creation parks the lease too, and the lease is what protects an upload from
 * another user's POST: once it ran out (no chunk for LOCK_TTL_MS), the path can be taken over (isLeaseLive).
 */
import { whenKvFree } from "../storage/busy.ts";
import { keys } from "../storage/keys.ts";

/** The value of a lock key. */
interface LeaseValue {
  holder: string;
  /** Milliseconds (deps.now) after which the lease is free again. */
  until: number;
}

/** A held lease; `versionstamp` and `until` change on every renewal. */
export interface UploadLock {
  key: Deno.KvKey;
  holder: string;
  versionstamp: string;
  until: number;
}

/**
 * Lease duration of an upload lock; a PATCH renews it while it streams. Short, because a lease parked between
 * chunks (parking, below) or left by a crashed server blocks other instances until it runs out.
 */
export const LOCK_TTL_MS = 10_000;

/**
 * Tries to take the lease lock of a target. Returns null while someone else holds an unexpired lease.
 * Expired leases are taken over: a crashed server never blocks an upload for longer than the TTL.
 */
export async function acquireUploadLock(
  kv: Deno.Kv,
  targetKey: string,
  options: { now: number; ttlMs?: number },
): Promise<UploadLock | null> {
  const key = keys.uploadLock(targetKey);
  const ttl = options.ttlMs ?? LOCK_TTL_MS;
  const current = await kv.get<LeaseValue>(key);
  if (current.value && current.value.until > options.now) return null;
  const holder = crypto.randomUUID();
  const op = kv.atomic().check(current).set(key, { holder, until: options.now + ttl }, {
    // KV expiry is lazy; `until` is what counts. The expiry only keeps stale keys from piling up.
    expireIn: ttl * 4,
  });
  // Another instance's commit may hold the KV file for a moment: that is a wait, not a failure.
  const res = await whenKvFree(() => op.commit());
  return res.ok ? { key, holder, versionstamp: res.versionstamp, until: options.now + ttl } : null;
}

/** Extends a held lease; false when it was lost (expired and taken over). Updates `lock.versionstamp`. */
export async function renewUploadLock(
  kv: Deno.Kv,
  lock: UploadLock,
  options: { now: number; ttlMs?: number },
): Promise<boolean> {
  const ttl = options.ttlMs ?? LOCK_TTL_MS;
  const op = kv.atomic().check({ key: lock.key, versionstamp: lock.versionstamp })
    .set(lock.key, { holder: lock.holder, until: options.now + ttl }, { expireIn: ttl * 4 });
  const res = await whenKvFree(() => op.commit());
  if (!res.ok) return false;
  lock.versionstamp = res.versionstamp;
  lock.until = options.now + ttl;
  return true;
}

/** Releases a held lease (no-op when it was lost meanwhile). */
export async function releaseUploadLock(kv: Deno.Kv, lock: UploadLock): Promise<void> {
  const op = kv.atomic().check({ key: lock.key, versionstamp: lock.versionstamp }).delete(lock.key);
  await whenKvFree(() => op.commit());
}

/** A running lease renewal; `stop()` waits for an in-flight renewal and tells whether the lease held. */
export interface LeaseKeeper {
  stop(): Promise<boolean>;
}

/** Renews a held lease every third of its TTL until stopped (long PATCH bodies outlive one lease). */
export function keepUploadLock(
  kv: Deno.Kv,
  lock: UploadLock,
  options: { now: () => number; ttlMs?: number },
): LeaseKeeper {
  const ttl = options.ttlMs ?? LOCK_TTL_MS;
  let held = true;
  let pending: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    pending = pending.then(async () => {
      if (held) held = await renewUploadLock(kv, lock, { now: options.now(), ttlMs: ttl });
    }).catch(() => {
      held = false;
    });
  }, Math.max(10, Math.floor(ttl / 3)));
  return {
    async stop() {
      clearInterval(timer);
      await pending;
      return held;
    },
  };
}

interface Held {
  lock: UploadLock;
  /** A request is using the lease right now. */
  busy: boolean;
}

/** The upload leases this app holds on one KV: one per app (AppDeps.leases), created with the app. */
export class UploadLeases {
  readonly kv: Deno.Kv;
  /** Leases in use or parked here, by upload key. */
  readonly held = new Map<string, Held>();

  constructor(kv: Deno.Kv) {
    this.kv = kv;
  }
}

/**
 * Takes the lock of an upload for one request: a parked lease of this process (renewed if it is getting
 * old), else a fresh KV lease. Null while another request, here or on another instance, holds it.
 */
export async function takeLease(
  leases: UploadLeases,
  key: string,
  options: { now: number },
): Promise<UploadLock | null> {
  const held = leases.held;
  const parked = held.get(key);
  if (parked) {
    if (parked.busy) return null;
    // Claim it before any await, so a concurrent request of this process sees it busy.
    parked.busy = true;
    if (parked.lock.until - options.now > LOCK_TTL_MS / 2) return parked.lock;
    if (await renewUploadLock(leases.kv, parked.lock, options)) return parked.lock;
    held.delete(key);
  }
  const lock = await acquireUploadLock(leases.kv, key, options);
  if (!lock) return null;
  if (held.has(key)) {
    // Another request of this process got here first; keep its entry and give ours back.
    await releaseUploadLock(leases.kv, lock);
    return null;
  }
  held.set(key, { lock, busy: true });
  return lock;
}

/**
 * Whether an upload's lease is live: a request of this process uses it, it is parked here and has not run
 * out, or another instance holds it in KV. Unlike takeLease, which may hand a parked lease to any request
 * of this process, this tells whether the upload's owner is still at work (creation and chunks renew it).
 */
export async function isLeaseLive(
  leases: UploadLeases,
  key: string,
  options: { now: number },
): Promise<boolean> {
  const parked = leases.held.get(key);
  if (parked && (parked.busy || parked.lock.until > options.now)) return true;
  const current = await leases.kv.get<LeaseValue>(keys.uploadLock(key));
  return current.value !== null && current.value.until > options.now;
}

/**
 * Whether an upload's lease is live in KV, for callers without this app's leases (plain writes through
 * lib/fs). A parked or busy lease is in KV too (busy ones are renewed there while their chunk streams).
 */
export async function isLeaseLiveInKv(kv: Deno.Kv, key: string, options: { now: number }): Promise<boolean> {
  const current = await kv.get<LeaseValue>(keys.uploadLock(key));
  return current.value !== null && current.value.until > options.now;
}

/** Ends a request's use of the lease but keeps it for the next chunk of the same upload. */
export function parkLease(leases: UploadLeases, key: string, lock: UploadLock): void {
  const parked = leases.held.get(key);
  if (parked?.lock === lock) parked.busy = false;
}

/** Releases the lease in KV (after a failure, or when nothing will follow). */
export async function dropLease(leases: UploadLeases, key: string, lock: UploadLock): Promise<void> {
  forgetLease(leases, key, lock);
  await releaseUploadLock(leases.kv, lock);
}

/** Forgets the lease after a commit deleted its lock key (completion, terminate, cleanup). */
export function forgetLease(leases: UploadLeases, key: string, lock: UploadLock): void {
  const held = leases.held;
  if (held.get(key)?.lock === lock) held.delete(key);
}

/** Releases every parked lease of this process (graceful shutdown: other instances need not wait them out). */
export async function releaseParkedLeases(leases: UploadLeases): Promise<void> {
  const held = leases.held;
  const parked = [...held].filter(([, h]) => !h.busy);
  for (const [key] of parked) held.delete(key);
  await Promise.all(parked.map(([, h]) => releaseUploadLock(leases.kv, h.lock)));
}
