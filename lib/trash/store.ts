/** KV records of trashed items: one per item, keyed by owner so a listing never sees another user's items. */
import { keys } from "../storage/keys.ts";

/** What KV keeps about one trashed item; its bytes sit in `<trash dir>/<id>/<name>`. */
export interface TrashRecord {
  id: string;
  userId: number;
  /** Origin vpath in the owner's scope. */
  vpath: string;
  name: string;
  isDir: boolean;
  size: number;
  /** Milliseconds (deps.now) of the deletion. */
  deletedAt: number;
}

/** Saves a record (creation only: an id is never reused). */
export async function saveTrashRecord(kv: Deno.Kv, record: TrashRecord): Promise<void> {
  const key = keys.trashItem(record.userId, record.id);
  await kv.atomic().check({ key, versionstamp: null }).set(key, record).commit();
}

/** The user's record with this id, or null (ids of other users are never found). */
export async function findTrashRecord(kv: Deno.Kv, userId: number, id: string): Promise<TrashRecord | null> {
  // A UUID is 36 characters; anything else is not ours and must not reach KV as an over-long key.
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  return (await kv.get<TrashRecord>(keys.trashItem(userId, id))).value;
}

/** Removes a record. */
export async function deleteTrashRecord(kv: Deno.Kv, record: Pick<TrashRecord, "userId" | "id">) {
  await kv.delete(keys.trashItem(record.userId, record.id));
}

/** Every record of one user, oldest key first. */
export async function listTrashRecords(kv: Deno.Kv, userId: number): Promise<TrashRecord[]> {
  const out: TrashRecord[] = [];
  for await (const e of kv.list<TrashRecord>({ prefix: keys.trashByUserPrefix(userId) })) out.push(e.value);
  return out;
}

/** Every record of every user (the purge). */
export async function* listAllTrashRecords(kv: Deno.Kv): AsyncGenerator<TrashRecord> {
  for await (const e of kv.list<TrashRecord>({ prefix: keys.trashPrefix() })) yield e.value;
}

/** Bytes in the user's trash (counted against their quota). */
export async function trashBytesOf(kv: Deno.Kv, userId: number): Promise<number> {
  let total = 0;
  for (const r of await listTrashRecords(kv, userId)) total += r.size;
  return total;
}
