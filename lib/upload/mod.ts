/**
 * Resumable uploads (tus 1.0 as filebrowser speaks it, docs/api.md#uploads-tus), addressed by target vpath.
 * State lives in KV (lib/upload/store.ts), bytes in a staging file outside the files root
 * (lib/upload/staging.ts); the finished file is moved into place atomically. Every call goes through the
 * path gate. Routes call these functions and only turn results into headers.
 */
import { ConflictError, ForbiddenError, LockedError } from "../errors.ts";
import { reserveQuota } from "./reservations.ts";
import { guardDropName } from "./drop_guard.ts";
import { createStagingFile, removeStagingFile, stagingPath } from "./staging.ts";
import { dropLease, forgetLease, isLeaseLive, parkLease, takeLease } from "./lease.ts";
import { deleteUpload, findUpload, saveUpload } from "./store.ts";
import type { UploadRecord } from "./store.ts";
import { parseUploadLength } from "./protocol.ts";
import {
  assertPlaceable,
  completeUpload,
  getOwnUpload,
  getUploadProgress,
  hookContextOf,
  resolveTarget,
} from "./target.ts";
import type { UploadContext, UploadStatus } from "./target.ts";

export { appendUploadChunk } from "./chunk.ts";
export type { AppendChunkOptions } from "./chunk.ts";
export { cleanupUploads } from "./cleanup.ts";
export type { CleanupResult } from "./cleanup.ts";
export {
  assertChunkContentType,
  parseUploadLength,
  parseUploadOffset,
  TUS_CONTENT_TYPE,
  tusLocation,
} from "./protocol.ts";
export { releaseParkedLeases } from "./lease.ts";
export { uploadContextOf } from "./target.ts";
export type { UploadContext, UploadDeps, UploadStatus } from "./target.ts";

/** Options of createUpload. */
export interface CreateUploadOptions {
  /** The raw `Upload-Length` header. */
  length: string | null | undefined;
  /** `?override=true`: the upload may replace an existing file (needs `modify`). */
  override: boolean;
}

/**
 * tus POST: registers an upload of `length` bytes to `vpath`. Validates everything before creating
 * anything: permission and gate (403), length (400), directory target (400), existing file without
 * override (409) or without `modify` (403), another user's live upload to the same file (409), a running
 * chunk of the caller's previous upload (423). A previous upload of the caller to the same target is
 * replaced, and so is another user's once its lease ran out (LOCK_TTL_MS without a chunk): nobody can hold
 * a path for the whole upload expiry. Runs the `before_upload` hook (its failure refuses the upload).
 * Zero-length uploads complete at once.
 */
export async function createUpload(
  ctx: UploadContext,
  vpath: string,
  options: CreateUploadOptions,
): Promise<UploadStatus> {
  const target = await resolveTarget(ctx, vpath, "create");
  const length = parseUploadLength(options.length);
  assertPlaceable(ctx, target, { override: options.override });
  // The declared length is what the upload will add (less the file it replaces): refuse it now, not at the end.
  const replaced = target.path.stat?.isFile ? target.path.stat.size : 0;
  // Held until the record is saved, which then keeps the length reserved (lib/upload/reservations.ts).
  using _hold = await reserveQuota(ctx.deps, ctx.user, length - replaced, { target: target.path.real });
  const { kv } = ctx.deps;
  const previous = await findUpload(kv, target.key);
  await guardDropName(kv, { key: target.key, vpath: target.path.vpath }, {
    previous,
    viaShare: ctx.gate.base !== undefined,
  });
  const ours = previous?.record.userId === ctx.user.id;
  const running = () =>
    new ConflictError(
      "upload_in_progress",
      `Cannot upload "${target.path.vpath}": another upload is running`,
    );
  // Another user's upload holds the path only while its lease lives: creation and every chunk renew it.
  if (previous && !ours && await isLeaseLive(kv, target.key, { now: ctx.deps.now() })) throw running();
  const lock = await takeLease(kv, target.key, { now: ctx.deps.now() });
  if (!lock) throw ours ? new LockedError("upload_locked") : running();
  // The new record is created under the lease and keeps it (parked), so its first chunk has its time.
  let park = false;
  try {
    await ctx.deps.hooks.before("upload", hookContextOf(ctx, target));
    const record: UploadRecord = {
      id: crypto.randomUUID(),
      userId: ctx.user.id,
      vpath: target.path.vpath,
      target: target.path.real,
      length,
      override: options.override,
      createdAt: ctx.deps.now(),
    };
    const staging = await createStagingFile(ctx.deps.config.uploadDir, record.id);
    // One commit replaces the previous record (or creates the first): a concurrent POST cannot slip between.
    const versionstamp = await saveUpload(kv, target.key, record, {
      expect: previous?.versionstamp ?? null,
      lock,
    });
    if (versionstamp === null) {
      await removeStagingFile(staging);
      throw previous ? new ConflictError("upload_changed") : running();
    }
    if (previous) await removeStagingFile(stagingPath(ctx.deps.config.uploadDir, previous.record.id));
    if (length === 0) {
      await completeUpload(ctx, target, { entry: { record, versionstamp }, lock });
      return { vpath: record.vpath, offset: 0, length: 0, complete: true };
    }
    park = true;
    return { vpath: record.vpath, offset: 0, length, complete: false };
  } finally {
    if (park) parkLease(kv, target.key, lock);
    else await dropLease(kv, target.key, lock);
  }
}

/**
 * tus HEAD/GET: the offset and declared length of the caller's upload to `vpath` (404 if none). An upload
 * found complete but not in place (the server stopped between the last byte and the move) is completed now,
 * so a client that sees offset = length is never wrong to think it is done.
 */
export async function getUploadStatus(ctx: UploadContext, vpath: string): Promise<UploadStatus> {
  const target = await resolveTarget(ctx, vpath, "create");
  const { entry, offset } = await getUploadProgress(ctx, target);
  const { record } = entry;
  if (offset < record.length) return { vpath: record.vpath, offset, length: record.length, complete: false };
  const lock = await takeLease(ctx.deps.kv, target.key, { now: ctx.deps.now() });
  // A running chunk is finishing it right now: report what is there, the client will see it done.
  if (!lock) return { vpath: record.vpath, offset, length: record.length, complete: false };
  try {
    await completeUpload(ctx, target, { entry, lock });
  } finally {
    await dropLease(ctx.deps.kv, target.key, lock);
  }
  return { vpath: record.vpath, offset, length: record.length, complete: true };
}

/** How long DELETE waits for a running chunk to let go of the upload before answering 423. */
const TERMINATE_WAIT_MS = 3000;

/**
 * tus DELETE: abandons the caller's upload to `vpath` and removes its staging data. Needs `delete`; the
 * root is refused (403). The target file itself is never touched. Waits briefly for a running chunk (a
 * client aborts its PATCH just before terminating), then 423.
 */
export async function terminateUpload(ctx: UploadContext, vpath: string): Promise<void> {
  const target = await resolveTarget(ctx, vpath, "delete");
  if (target.path.vpath === "/") throw new ForbiddenError("root_not_deletable");
  const { kv } = ctx.deps;
  const deadline = Date.now() + TERMINATE_WAIT_MS;
  for (;;) {
    const entry = await getOwnUpload(ctx, target);
    const lock = await takeLease(kv, target.key, { now: ctx.deps.now() });
    if (lock) {
      if (await deleteUpload(kv, target.key, { expect: entry.versionstamp, lock })) {
        forgetLease(kv, target.key, lock);
        await removeStagingFile(stagingPath(ctx.deps.config.uploadDir, entry.record.id));
        return;
      }
      await dropLease(kv, target.key, lock);
    }
    if (Date.now() >= deadline) throw new LockedError("upload_locked");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
