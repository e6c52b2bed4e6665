/** tus POST: registering an upload, under its lock, after every check. */
import { ConflictError, LockedError } from "../errors.ts";
import { reserveQuota } from "./reservations.ts";
import { guardDropName } from "./drop_guard.ts";
import { createStagingFile, removeStagingFile, stagingPath } from "./staging.ts";
import { dropLease, isLeaseLive, parkLease, takeLease } from "./lock.ts";
import { findUpload, saveUpload } from "./store.ts";
import type { UploadRecord } from "./store.ts";
import { parseUploadLength } from "./protocol.ts";
import { assertPlaceable, completeUpload, hookContextOf, resolveTarget } from "./target.ts";
import type { UploadContext, UploadStatus } from "./target.ts";

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
  await using _hold = await reserveQuota(ctx.deps, ctx.user, length - replaced, { target: target.path.real });
  const { kv } = ctx.deps;
  const previous = await findUpload(kv, target.key);
  await guardDropName(kv, { key: target.key, vpath: target.path.vpath }, {
    previous,
    viaShare: ctx.gate.base !== undefined,
    isLive: () => isLeaseLive(ctx.deps.leases, target.key, { now: ctx.deps.now() }),
  });
  const ours = previous?.record.userId === ctx.user.id;
  const running = () =>
    new ConflictError(
      "upload_in_progress",
      `Cannot upload "${target.path.vpath}": another upload is running`,
    );
  // Another user's upload holds the path only while its lease lives: creation and every chunk renew it.
  if (previous && !ours && await isLeaseLive(ctx.deps.leases, target.key, { now: ctx.deps.now() })) {
    throw running();
  }
  // A lease parked here belongs to the upload recorded now (this user's, or one that wins a race with us):
  // whatever this request comes to, that lease keeps protecting it. Only a lease taken fresh from KV is
  // released when the creation fails. (Read right before takeLease, which looks at it before any await.)
  const reused = ctx.deps.leases.held.has(target.key);
  const lock = await takeLease(ctx.deps.leases, target.key, { now: ctx.deps.now() });
  if (!lock) throw ours ? new LockedError("upload_locked") : running();
  // The new record is created under the lease and keeps it (parked), so its first chunk has its time.
  let park = reused;
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
    if (park) parkLease(ctx.deps.leases, target.key, lock);
    else await dropLease(ctx.deps.leases, target.key, lock);
  }
}
