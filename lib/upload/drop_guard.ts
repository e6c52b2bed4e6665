/**
 * Keeps the owner of an upload-only share link off the names its visitors are uploading to. Visitors' uploads
 * run as the owner (lib/drop.ts), so without this the owner's own upload to the same name would be taken for
 * a retry of theirs and replace it, and a plain write would take the name from under it. A name counts as
 * held while it has a drop marker and an unfinished upload; the owner then gets 409, as a second visitor would.
 */
import { ConflictError } from "../errors.ts";
import { whenKvFree } from "../storage/busy.ts";
import { keys } from "../storage/keys.ts";
import { findUpload, targetKeyOf, type UploadEntry } from "./store.ts";

function running(vpath: string): ConflictError {
  return new ConflictError(
    "upload_in_progress",
    `Cannot write "${vpath}": an upload through a drop link is running`,
  );
}

/**
 * tus creation. Through a share (`viaShare`: a drop visitor) an upload never replaces another one: the name
 * was picked free, so a record there is someone else's (409). For the owner, a marker with an unfinished
 * upload is a visitor's upload (409); a marker without one is left from a finished drop upload and is removed,
 * so that the visitor's link no longer reaches the owner's new upload to that name.
 */
export async function guardDropName(
  kv: Deno.Kv,
  target: { key: string; vpath: string },
  options: { previous: UploadEntry | null; viaShare: boolean },
): Promise<void> {
  if (options.viaShare) {
    if (options.previous) throw running(target.vpath);
    return;
  }
  const marker = await kv.get<string>(keys.dropUpload(target.key));
  if (marker.value === null) return;
  if (options.previous) throw running(target.vpath);
  const op = kv.atomic().check(marker).delete(marker.key);
  await whenKvFree(() => op.commit());
}

/**
 * tus HEAD, PATCH and DELETE of the owner: a visitor's upload (the name has a drop marker) is not theirs to
 * continue, read or end, though it runs as their user: 404 as for any upload of someone else.
 */
export async function isVisitorUpload(kv: Deno.Kv, targetKey: string, viaShare: boolean): Promise<boolean> {
  if (viaShare) return false;
  return (await kv.get<string>(keys.dropUpload(targetKey))).value !== null;
}

/** Plain writes (POST, PUT, WebDAV, copy and move) of the owner: 409 while a visitor's upload holds the name. */
export async function assertNoDropUpload(
  kv: Deno.Kv | undefined,
  real: string,
  vpath: string,
): Promise<void> {
  if (!kv) return;
  const key = await targetKeyOf(real);
  const marker = await kv.get<string>(keys.dropUpload(key));
  if (marker.value !== null && await findUpload(kv, key)) throw running(vpath);
}
