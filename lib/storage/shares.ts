/** Share links in Deno KV, indexed by hash and by owner. Expired links are removed when read. */
import type { Share } from "../types.ts";
import { fitsKeyPart, keys } from "./keys.ts";

/** A stored share: the wire share plus its secrets (never sent by the authenticated API). */
export interface StoredShare extends Omit<Share, "hasPassword" | "username"> {
  passwordHash: string;
  token: string;
}

function isExpired(s: StoredShare, now: number): boolean {
  return s.expire !== 0 && s.expire * 1000 <= now;
}

/**
 * Adds to `op` the writes of a share and its owner index, guarded by the versionstamp the hash key must have
 * (null: unused). Replacing a share of another owner also drops that owner's index entry.
 */
export function putShareOps(
  op: Deno.AtomicOperation,
  share: StoredShare,
  expect: { versionstamp: string | null; previousOwner?: number },
): Deno.AtomicOperation {
  op = op.check({ key: keys.share(share.hash), versionstamp: expect.versionstamp })
    .set(keys.share(share.hash), share)
    .set(keys.shareByUser(share.userID, share.hash), true);
  if (expect.previousOwner !== undefined && expect.previousOwner !== share.userID) {
    op = op.delete(keys.shareByUser(expect.previousOwner, share.hash));
  }
  return op;
}

/** Saves a new share; false when the hash is already used. */
export async function createShare(kv: Deno.Kv, share: StoredShare): Promise<boolean> {
  const res = await putShareOps(kv.atomic(), share, { versionstamp: null }).commit();
  return res.ok;
}

/** Finds a live share by hash (an expired one is deleted and reported missing). */
export async function findShare(kv: Deno.Kv, hash: string, now: number): Promise<StoredShare | null> {
  // Visitors choose the hash: one too long for a KV key names no share.
  if (!fitsKeyPart(hash)) return null;
  const s = (await kv.get<StoredShare>(keys.share(hash))).value;
  if (!s) return null;
  if (isExpired(s, now)) {
    await deleteShare(kv, s);
    return null;
  }
  return s;
}

/** Lists live shares, of one user or of everyone, sorted by userID then expire. */
export async function listShares(
  kv: Deno.Kv,
  now: number,
  options: { userId?: number } = {},
): Promise<StoredShare[]> {
  const out: StoredShare[] = [];
  if (options.userId !== undefined) {
    for await (const e of kv.list({ prefix: keys.sharesByUserPrefix(options.userId) })) {
      const s = await findShare(kv, String(e.key[e.key.length - 1]), now);
      if (s) out.push(s);
    }
  } else {
    for await (const e of kv.list<StoredShare>({ prefix: keys.sharesPrefix() })) {
      if (isExpired(e.value, now)) await deleteShare(kv, e.value);
      else out.push(e.value);
    }
  }
  return out.sort((a, b) => a.userID - b.userID || a.expire - b.expire);
}

/** Deletes a share and its index entry. */
export async function deleteShare(kv: Deno.Kv, share: StoredShare): Promise<void> {
  await kv.atomic().delete(keys.share(share.hash)).delete(keys.shareByUser(share.userID, share.hash))
    .commit();
}

/** Deletes a user's shares on `path` or beneath it (segment boundary; trailing slash ignored). */
export async function deleteSharesUnder(
  kv: Deno.Kv,
  userId: number,
  path: string,
  now: number,
): Promise<number> {
  const base = path.replace(/\/+$/, "") || "/";
  let n = 0;
  for (const s of await listShares(kv, now, { userId })) {
    const p = s.path.replace(/\/+$/, "") || "/";
    if (base === "/" || p === base || p.startsWith(base + "/")) {
      await deleteShare(kv, s);
      n++;
    }
  }
  return n;
}
