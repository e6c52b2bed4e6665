/**
 * Resumable upload state in Deno KV, so an upload survives a restart and can continue on any instance that
 * shares the KV store and the staging directory. One record per target file, written at creation and deleted
 * at the end (the offset is the staging file's size, like upstream, so chunks need no KV write); its lock is
 * lib/upload/lock.ts.
 *
 * Key (lib/storage/keys.ts): `keys.uploadRecord(sha256(real target path))` → UploadRecord. The target path is
 * hashed because KV keys are limited to 2 KiB and on-disk paths are not.
 */
import { whenKvFree } from "../storage/busy.ts";
import { keys } from "../storage/keys.ts";
import type { UploadLock } from "./lock.ts";

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

const encoder = new TextEncoder();

/** The hex sha256 of a target path, used as the key part of its record and lock. */
export async function targetKeyOf(target: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(target));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Reads the upload record of a target, or null. */
export async function findUpload(kv: Deno.Kv, targetKey: string): Promise<UploadEntry | null> {
  const entry = await kv.get<UploadRecord>(keys.uploadRecord(targetKey));
  if (entry.value === null || entry.versionstamp === null) return null;
  return { record: entry.value, versionstamp: entry.versionstamp };
}

/** Lists every upload record (for cleanup). */
export async function* listUploads(kv: Deno.Kv): AsyncIterableIterator<UploadEntry> {
  for await (const entry of kv.list<UploadRecord>({ prefix: keys.uploadRecordsPrefix() })) {
    yield { record: entry.value, versionstamp: entry.versionstamp };
  }
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
  const key = keys.uploadRecord(targetKey);
  const op = kv.atomic().check({ key, versionstamp: options.expect });
  if (options.lock) op.check({ key: options.lock.key, versionstamp: options.lock.versionstamp });
  // Only written keys get a new versionstamp, so a checked lock stays valid for later commits.
  op.set(key, record);
  // A commit that found the KV file locked by another process wrote nothing: it is tried again.
  const res = await whenKvFree(() => op.commit());
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
  const key = keys.uploadRecord(targetKey);
  const op = kv.atomic().check({ key, versionstamp: options.expect }).delete(key);
  if (options.lock) {
    op.check({ key: options.lock.key, versionstamp: options.lock.versionstamp }).delete(options.lock.key);
  }
  const res = await whenKvFree(() => op.commit());
  return res.ok;
}
