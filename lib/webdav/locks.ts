/**
 * WebDAV locks (class 2), held in KV so every instance on the same database agrees. Locks are keyed by the
 * real on-disk path (split into key parts), so two users whose scopes overlap see each other's locks. Every
 * change checks and bumps one epoch key, which serialises lock changes across instances; a lock expires by
 * its timeout (KV `expireIn` plus an `expires` check, since KV expiry is lazy). What one user can hold is
 * bounded: timeouts of at most an hour (refreshable), a number of locks per user, of shared locks per resource,
 * and the size of the owner element (lib/webdav/lock_methods.ts). Besides its holder, an admin and the owner of
 * the scope the locked resource lies in may remove a lock ({@link mayRemoveLock}); deleting a user removes theirs.
 */
import { ConflictError, HttpError, LockedError } from "../errors.ts";
import { keys } from "../storage/keys.ts";
import { isKvBusy } from "../storage/busy.ts";

/** One active lock. */
export interface DavLock {
  token: string;
  /** Real path segments of the locked resource. */
  segs: string[];
  /** The request URL path the lock was taken on (for lockroot). */
  root: string;
  depth: "0" | "infinity";
  scope: "exclusive" | "shared";
  /** The client's owner element, serialised (may be ""). */
  owner: string;
  userId: number;
  /** Real path segments of the holder's scope when the lock was taken (absent: taken before they were kept). */
  scopeSegs?: string[];
  /** Timeout in seconds. */
  timeout: number;
  /** Expiry in ms since the epoch. */
  expires: number;
}

/** Default and largest lock timeouts, in seconds: a lock outlives its client by an hour at most. */
export const DEFAULT_LOCK_SECONDS = 3600;
export const MAX_LOCK_SECONDS = 3600;
/** Most live locks one user holds. */
export const MAX_LOCKS_PER_USER = 256;
/** Most shared locks on one resource. */
export const MAX_SHARED_LOCKS = 64;
const MAX_TRIES = 50;

/** Parses a `Timeout` header (`Second-N`, `Infinite`, a list): the first usable value, capped. */
export function parseTimeout(header: string | null | undefined): number {
  for (const part of (header ?? "").split(",")) {
    const v = part.trim();
    if (/^infinite$/i.test(v)) return MAX_LOCK_SECONDS;
    const m = v.match(/^second-(\d{1,12})$/i);
    if (m) return Math.max(1, Math.min(Number(m[1]), MAX_LOCK_SECONDS));
  }
  return DEFAULT_LOCK_SECONDS;
}

/** Splits a real path into key parts. */
export function realSegments(real: string): string[] {
  return real.split("/").filter((s) => s !== "");
}

function isLive(lock: DavLock | null, now: number): lock is DavLock {
  return lock !== null && lock.expires > now;
}

async function listAt(kv: Deno.Kv, prefix: Deno.KvKey, now: number): Promise<DavLock[]> {
  const tokens: string[] = [];
  for await (const e of kv.list({ prefix })) tokens.push(String(e.key[e.key.length - 1]));
  if (!tokens.length) return [];
  const out: DavLock[] = [];
  for (let i = 0; i < tokens.length; i += 10) {
    const entries = await kv.getMany<DavLock[]>(tokens.slice(i, i + 10).map((t) => keys.davLock(t)));
    for (const e of entries) if (isLive(e.value, now)) out.push(e.value);
  }
  return out;
}

/** True when no lock exists at all (one cheap read that spares lock lookups on most requests). */
async function noLocks(kv: Deno.Kv): Promise<boolean> {
  for await (const _ of kv.list({ prefix: keys.davLocksPrefix() }, { limit: 1 })) return false;
  return true;
}

/** Locks that cover `segs`: on the path itself, or on an ancestor with depth infinity. */
export async function locksCovering(kv: Deno.Kv, segs: readonly string[], now: number): Promise<DavLock[]> {
  if (await noLocks(kv)) return [];
  const lists = await Promise.all(
    Array.from(
      { length: segs.length + 1 },
      (_, i) => listAt(kv, keys.davLockPathsPrefix(segs.slice(0, i), true), now),
    ),
  );
  return lists.flatMap((locks, i) => i === segs.length ? locks : locks.filter((l) => l.depth === "infinity"));
}

/** Locks on `segs` or anywhere below it. */
export async function locksBelow(kv: Deno.Kv, segs: readonly string[], now: number): Promise<DavLock[]> {
  if (await noLocks(kv)) return [];
  return await listAt(kv, keys.davLockPathsPrefix(segs), now);
}

/** Finds a live lock by token. */
export async function findLock(kv: Deno.Kv, token: string, now: number): Promise<DavLock | null> {
  if (token.length > 200) return null;
  const e = await kv.get<DavLock>(keys.davLock(token));
  return isLive(e.value, now) ? e.value : null;
}

/** The live locks a user holds (by the holder index; at most MAX_LOCKS_PER_USER and a few expired ones). */
export async function locksOfUser(kv: Deno.Kv, userId: number, now: number): Promise<DavLock[]> {
  return await listAt(kv, keys.davUserLocksPrefix(userId), now);
}

function isInside(inner: readonly string[], outer: readonly string[]): boolean {
  return outer.length <= inner.length && outer.every((s, i) => s === inner[i]);
}

/** Who asks to remove a lock: the user, and the real segments of their scope. */
export interface LockRemover {
  userId: number;
  admin: boolean;
  scopeSegs: readonly string[];
}

/**
 * Whether `who` may remove `lock`: its holder, an admin, or an owner of the scope it lies in, that is a user
 * whose scope holds the locked resource and is the holder's scope or lies inside it. So a user with a wider
 * scope (`/`, a parent of the homes) cannot keep the owner of a home out of a file; users who share one scope
 * folder may remove each other's locks.
 */
export function mayRemoveLock(lock: DavLock, who: LockRemover): boolean {
  if (lock.userId === who.userId || who.admin) return true;
  return isInside(lock.segs, who.scopeSegs) && isInside(who.scopeSegs, lock.scopeSegs ?? []);
}

/** True when `lock` covers the resource at `segs`. */
export function lockCovers(lock: DavLock, segs: readonly string[]): boolean {
  if (lock.segs.length > segs.length) return false;
  if (!lock.segs.every((s, i) => s === segs[i])) return false;
  return lock.segs.length === segs.length || lock.depth === "infinity";
}

function conflicts(a: DavLock, b: DavLock): boolean {
  return a.scope === "exclusive" || b.scope === "exclusive";
}

async function commitLockChange(
  kv: Deno.Kv,
  change: (op: Deno.AtomicOperation) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < MAX_TRIES; i++) {
    try {
      const epoch = await kv.get<number>(keys.davLockEpoch());
      const op = kv.atomic().check(epoch).set(keys.davLockEpoch(), (epoch.value ?? 0) + 1);
      await change(op);
      if ((await op.commit()).ok) return;
    } catch (err) {
      // Two processes on one SQLite file: "database is locked" means try again, not fail.
      if (!isKvBusy(err)) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 10));
  }
  throw new HttpError(503, "lock_contended");
}

function ttl(lock: DavLock, now: number): number {
  return Math.max(1000, lock.expires - now);
}

/** Stores a new lock; 423 when an existing lock conflicts with it. */
export async function createLock(kv: Deno.Kv, lock: DavLock, now: number): Promise<void> {
  try {
    await commitLockChange(kv, async (op) => {
      const existing = [
        ...await locksCovering(kv, lock.segs, now),
        ...lock.depth === "infinity" ? await locksBelow(kv, lock.segs, now) : [],
      ];
      if (existing.some((l) => conflicts(l, lock))) throw new LockedError("lock_conflict");
      // locksBelow lists the resource's own locks too: count tokens, not entries.
      const onResource = existing.filter((l) =>
        l.segs.length === lock.segs.length && isInside(l.segs, lock.segs)
      );
      if (new Set(onResource.map((l) => l.token)).size >= MAX_SHARED_LOCKS) {
        throw new HttpError(507, "too_many_shared_locks");
      }
      if ((await locksOfUser(kv, lock.userId, now)).length >= MAX_LOCKS_PER_USER) {
        throw new HttpError(507, "too_many_locks");
      }
      op.set(keys.davLock(lock.token), lock, { expireIn: ttl(lock, now) })
        .set(keys.davLockPath(lock.segs, lock.token), true, { expireIn: ttl(lock, now) })
        .set(keys.davUserLock(lock.userId, lock.token), true, { expireIn: ttl(lock, now) });
    });
  } catch (err) {
    // A path too long for a KV key cannot be locked.
    if (err instanceof TypeError) throw new HttpError(507, "lock_path_too_long", undefined, { cause: err });
    throw err;
  }
}

/** Extends a lock to a new timeout; returns it. */
export async function refreshLock(
  kv: Deno.Kv,
  lock: DavLock,
  timeout: number,
  now: number,
): Promise<DavLock> {
  const next = { ...lock, timeout, expires: now + timeout * 1000 };
  await commitLockChange(kv, async (op) => {
    if (!await findLock(kv, lock.token, now)) throw new ConflictError("lock_gone");
    op.set(keys.davLock(next.token), next, { expireIn: ttl(next, now) })
      .set(keys.davLockPath(next.segs, next.token), true, { expireIn: ttl(next, now) })
      .set(keys.davUserLock(next.userId, next.token), true, { expireIn: ttl(next, now) });
  });
  return next;
}

/** Removes a lock. */
export async function removeLock(kv: Deno.Kv, lock: DavLock): Promise<void> {
  await commitLockChange(kv, (op) => {
    op.delete(keys.davLock(lock.token)).delete(keys.davLockPath(lock.segs, lock.token))
      .delete(keys.davUserLock(lock.userId, lock.token));
    return Promise.resolve();
  });
}

/** Removes every lock a user holds (the user was deleted); also those taken before the holder index existed. */
export async function removeUserLocks(kv: Deno.Kv, userId: number): Promise<number> {
  const held: DavLock[] = [];
  for await (const e of kv.list<DavLock>({ prefix: keys.davLocksPrefix() })) {
    if (e.value.userId === userId) held.push(e.value);
  }
  for (const lock of held) await removeLock(kv, lock);
  // Index entries whose lock already expired.
  for await (const e of kv.list({ prefix: keys.davUserLocksPrefix(userId) })) await kv.delete(e.key);
  return held.length;
}

/** Removes every lock on or below `segs` (the resource was deleted or moved away). */
export async function removeLocksBelow(kv: Deno.Kv, segs: readonly string[], now: number): Promise<void> {
  const locks = await locksBelow(kv, segs, now);
  for (const lock of locks) await removeLock(kv, lock);
}

/** A fresh lock token. */
export function newLockToken(): string {
  return `opaquelocktoken:${crypto.randomUUID()}`;
}
