/**
 * Keeps the owner of an upload-only share link off the names its visitors are uploading to. Visitors' uploads
 * run as the owner (lib/drop.ts), so without this the owner's own upload to the same name would be taken for
 * a retry of theirs and replace it, and a plain write would take the name from under it. A name counts as
 * held while it has a drop marker and an unfinished upload whose lease is live: as long as a user's upload
 * holds its name against another user's (LOCK_TTL_MS after its last chunk), not for the whole upload expiry.
 * The owner then gets 409, as a second visitor would.
 */
import { ConflictError } from "../errors.ts";
import { whenKvFree } from "../storage/busy.ts";
import { keys } from "../storage/keys.ts";
import { isLeaseLiveInKv } from "./lock.ts";
import { findUpload, targetKeyOf, type UploadEntry } from "./store.ts";

/** The marker of a name a visitor's upload holds: its link and upload id (a bare hash: written before ids). */
export type DropMarker = { hash: string; id: string } | string;

function running(vpath: string): ConflictError {
  return new ConflictError(
    "upload_in_progress",
    `Cannot write "${vpath}": an upload through a drop link is running`,
  );
}

/**
 * tus creation. Through a share (`viaShare`: a drop visitor) an upload never replaces another one: the name
 * was picked free, so a record there is someone else's (409). For the owner, a marker with an unfinished
 * upload whose lease is live (`isLive`) is a visitor's running upload (409). Otherwise the marker is removed
 * (with the visitor's id): left from a finished drop upload, or from one idle past its lease, which the owner's
 * upload then replaces like any of their own; the visitor's link no longer reaches the name.
 */
export async function guardDropName(
  kv: Deno.Kv,
  target: { key: string; vpath: string },
  options: { previous: UploadEntry | null; viaShare: boolean; isLive: () => Promise<boolean> },
): Promise<void> {
  if (options.viaShare) {
    if (options.previous) throw running(target.vpath);
    return;
  }
  const marker = await kv.get<DropMarker>(keys.dropUpload(target.key));
  if (marker.value === null) return;
  if (options.previous && await options.isLive()) throw running(target.vpath);
  const op = kv.atomic().check(marker).delete(marker.key);
  if (typeof marker.value === "object") op.delete(keys.dropUploadId(marker.value.hash, marker.value.id));
  await whenKvFree(() => op.commit());
}

/**
 * tus HEAD, PATCH and DELETE of the owner: a visitor's upload (the name has a drop marker) is not theirs to
 * continue, read or end, though it runs as their user: 404 as for any upload of someone else.
 */
export async function isVisitorUpload(kv: Deno.Kv, targetKey: string, viaShare: boolean): Promise<boolean> {
  if (viaShare) return false;
  return (await kv.get<DropMarker>(keys.dropUpload(targetKey))).value !== null;
}

/**
 * Plain writes (POST, PUT, WebDAV, copy and move) of the owner: 409 while a visitor's upload holds the name
 * (marker, unfinished upload, live lease). `source` is the app's dependencies (their clock) or a bare KV.
 */
export async function assertNoDropUpload(
  source: Deno.Kv | { kv: Deno.Kv; now: () => number } | undefined,
  real: string,
  vpath: string,
): Promise<void> {
  if (!source) return;
  const kv = "kv" in source ? source.kv : source;
  const now = "now" in source ? source.now() : Date.now();
  const key = await targetKeyOf(real);
  const marker = await kv.get<DropMarker>(keys.dropUpload(key));
  if (marker.value === null || !await findUpload(kv, key)) return;
  if (await isLeaseLiveInKv(kv, key, { now })) throw running(vpath);
}
