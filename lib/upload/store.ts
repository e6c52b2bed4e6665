/**
 * Resumable upload state in Deno KV, so an upload survives a restart and can continue on any instance that
 * shares the KV store and the staging directory. One record per target file, written at creation and deleted
 * at the end (the offset is the staging file's size, like upstream, so chunks need no KV write), plus a short
 * lease lock that keeps two writers (PATCH, DELETE, completion, cleanup) off the same upload.
 *
 * Keys (see lib/storage/keys.ts): `["uploads", "by_target", sha256(real target path)]` → UploadRecord and
 * `["uploads", "lock", sha256(real target path)]` → UploadLease. The target path is hashed because KV keys
 * are limited to 2 KiB and on-disk paths are not.
 */
import { keys } from "../storage/keys.ts";

/** What the server remembers about one unfinished upload. */
export interface UploadRecord {
  /** Random id; also names the staging file. */
  id: string;
  /** Owner; only this user may query, continue or terminate the upload. */
  userId: number;
  /** Canonical target vpath in the owner's scope. */
  vpath: string;
  /** Real on-disk path of the target (what the record key is derived from). */
  target: string;
  /** Declared total length in bytes (Upload-Length). */
  length: number;
  /** The upload may replace an existing file. */
  override: boolean;
  /** Milliseconds (deps.now) of creation (activity later shows in the staging file's mtime). */
  createdAt: number;
}

/** A record together with the versionstamp it was read at (for compare-and-set). */
export interface UploadEntry {
  record: UploadRecord;
  versionstamp: string;
}

/** The value of a lock key. */
export interface UploadLease {
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
 * chunks (lib/upload/lease.ts) or left by a crashed server blocks other instances until it runs out.
 */
export const LOCK_TTL_MS = 10_000;

const encoder = new TextEncoder();

/** The hex sha256 of a target path, used as the key part of its record and lock. */
export async function targetKeyOf(target: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(target));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The KV key of the record of an upload to `targetKey`. */
export function recordKey(targetKey: string): Deno.KvKey {
  return [...keys.uploadsPrefix(), "by_target", targetKey];
}

/** The KV key of the lock of an upload to `targetKey`. */
export function lockKey(targetKey: string): Deno.KvKey {
  return [...keys.uploadsPrefix(), "lock", targetKey];
}

/** Reads the upload record of a target, or null. */
export async function findUpload(kv: Deno.Kv, targetKey: string): Promise<UploadEntry | null> {
  const entry = await kv.get<UploadRecord>(recordKey(targetKey));
  if (entry.value === null || entry.versionstamp === null) return null;
  return { record: entry.value, versionstamp: entry.versionstamp };
}

/** Lists every upload record (for cleanup). */
export async function* listUploads(kv: Deno.Kv): AsyncIterableIterator<UploadEntry> {
  for await (const entry of kv.list<UploadRecord>({ prefix: [...keys.uploadsPrefix(), "by_target"] })) {
    yield { record: entry.value, versionstamp: entry.versionstamp };
  }
}

/**
 * Tries to take the lease lock of a target. Returns null while someone else holds an unexpired lease.
 * Expired leases are taken over: a crashed server never blocks an upload for longer than the TTL.
 */
export async function acquireUploadLock(
  kv: Deno.Kv,
  targetKey: string,
  options: { now: number; ttlMs?: number },
): Promise<UploadLock | null> {
  const key = lockKey(targetKey);
  const ttl = options.ttlMs ?? LOCK_TTL_MS;
  const current = await kv.get<UploadLease>(key);
  if (current.value && current.value.until > options.now) return null;
  const holder = crypto.randomUUID();
  const res = await kv.atomic().check(current).set(key, { holder, until: options.now + ttl }, {
    // KV expiry is lazy; `until` is what counts. The expiry only keeps stale keys from piling up.
    expireIn: ttl * 4,
  }).commit();
  return res.ok ? { key, holder, versionstamp: res.versionstamp, until: options.now + ttl } : null;
}

/** Extends a held lease; false when it was lost (expired and taken over). Updates `lock.versionstamp`. */
export async function renewUploadLock(
  kv: Deno.Kv,
  lock: UploadLock,
  options: { now: number; ttlMs?: number },
): Promise<boolean> {
  const ttl = options.ttlMs ?? LOCK_TTL_MS;
  const res = await kv.atomic().check({ key: lock.key, versionstamp: lock.versionstamp })
    .set(lock.key, { holder: lock.holder, until: options.now + ttl }, { expireIn: ttl * 4 }).commit();
  if (!res.ok) return false;
  lock.versionstamp = res.versionstamp;
  lock.until = options.now + ttl;
  return true;
}

/** Releases a held lease (no-op when it was lost meanwhile). */
export async function releaseUploadLock(kv: Deno.Kv, lock: UploadLock): Promise<void> {
  await kv.atomic().check({ key: lock.key, versionstamp: lock.versionstamp }).delete(lock.key).commit();
}

/**
 * Writes a record. `expect` is the versionstamp the caller read (null: must not exist yet); `lock`, when
 * given, must still be held. Returns the new versionstamp, or null when either check failed.
 */
export async function saveUpload(
  kv: Deno.Kv,
  targetKey: string,
  record: UploadRecord,
  options: { expect: string | null; lock?: UploadLock },
): Promise<string | null> {
  const key = recordKey(targetKey);
  const op = kv.atomic().check({ key, versionstamp: options.expect });
  if (options.lock) op.check({ key: options.lock.key, versionstamp: options.lock.versionstamp });
  // Only written keys get a new versionstamp, so a checked lock stays valid for later commits.
  const res = await op.set(key, record).commit();
  return res.ok ? res.versionstamp : null;
}

/**
 * Deletes a record (and the lock, when given and still held) in one commit. `expect` guards against
 * deleting a newer record. Returns false when a check failed.
 */
export async function deleteUpload(
  kv: Deno.Kv,
  targetKey: string,
  options: { expect: string; lock?: UploadLock },
): Promise<boolean> {
  const key = recordKey(targetKey);
  const op = kv.atomic().check({ key, versionstamp: options.expect }).delete(key);
  if (options.lock) {
    op.check({ key: options.lock.key, versionstamp: options.lock.versionstamp }).delete(options.lock.key);
  }
  const res = await op.commit();
  return res.ok;
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
