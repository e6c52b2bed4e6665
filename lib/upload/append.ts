/** tus PATCH: appending one chunk to an upload, under its lease lock, and completing it at full length. */
import {
  BadRequestError,
  ConflictError,
  LockedError,
  NotFoundError,
  PayloadTooLargeError,
} from "../errors.ts";
import { writeChunk } from "./chunk_writer.ts";
import { dropLease, keepUploadLock, parkLease, takeLease } from "./lock.ts";
import { stagingPath, stagingSize } from "./staging.ts";
import { assertChunkContentType, parseUploadOffset } from "./protocol.ts";
import { completeUpload, getUploadProgress, resolveTarget } from "./target.ts";
import type { UploadContext, UploadStatus } from "./target.ts";

/** The request parts a PATCH carries. */
export interface AppendChunkOptions {
  /** Raw `Upload-Offset` header. */
  offset: string | null | undefined;
  /** Raw `Content-Type` header. */
  contentType: string | null | undefined;
  /** Raw `Content-Length` header, when the client sent one. */
  contentLength?: string | null;
  body: ReadableStream<Uint8Array> | null;
}

function declaredBodyLength(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined || !/^\d+$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/**
 * Appends the body at `Upload-Offset`. Checks, in order: gate with `create` (403), content type (415),
 * offset syntax (400), the caller's upload exists (404), offset within the declared length (400) and equal
 * to the current offset (409), body not longer than what is left (413; nothing kept), no other chunk
 * running (423). A chunk cut short by the client keeps what was written. At full length the file is moved
 * into place (override needs `modify` then, like at creation).
 *
 * The body is never drained here; after an error the HTTP layer drains what is left.
 */
export async function appendUploadChunk(
  ctx: UploadContext,
  vpath: string,
  options: AppendChunkOptions,
): Promise<UploadStatus> {
  const target = await resolveTarget(ctx, vpath, "create");
  assertChunkContentType(options.contentType);
  const offset = parseUploadOffset(options.offset);
  const first = await getUploadProgress(ctx, target);
  const { length } = first.entry.record;
  if (offset > length) {
    throw new BadRequestError(`upload offset ${offset} exceeds declared length ${length}`, {
      code: "offset_too_large",
    });
  }
  if (offset !== first.offset) throw new ConflictError("offset_mismatch");
  const bodyLength = declaredBodyLength(options.contentLength);
  if (bodyLength !== null && bodyLength > length - offset) throw new PayloadTooLargeError("chunk_too_large");

  const { kv } = ctx.deps;
  const lock = await takeLease(ctx.deps.leases, target.key, { now: ctx.deps.now() });
  if (!lock) throw new LockedError("upload_locked");
  // A clean chunk parks the lease for the next one; anything else releases it (after completion deleted the
  // lock key, releasing is a no-op).
  let park = false;
  try {
    // Another chunk may have ended between the first look and the lock. Only the staging size can have
    // changed: replacing or ending the record takes this lease and removes the old staging file, so the
    // record need not be read again (a gone file is a 404, like at the first look).
    const { entry } = first;
    const staging = stagingPath(ctx.deps.config.uploadDir, entry.record.id);
    const current = await stagingSize(staging);
    if (current === null) throw new NotFoundError("upload_not_found", "Staging data of the upload is gone");
    if (current !== offset) throw new ConflictError("offset_mismatch");
    const keeper = keepUploadLock(kv, lock, { now: ctx.deps.now });
    const result = await writeChunk(staging, options.body, {
      offset,
      limit: length - offset,
      backgroundSync: ctx.deps.stagingSync,
    }).finally(() =>
      keeper.stop().then((held) => held || Promise.reject(new LockedError("upload_lock_lost")))
    );
    if (result.overflow) throw new PayloadTooLargeError("chunk_too_large");
    const newOffset = offset + result.written;
    if (newOffset === length && !result.aborted) {
      await completeUpload(ctx, target, { entry, lock });
      return { vpath: entry.record.vpath, offset: newOffset, length, complete: true };
    }
    park = !result.aborted;
    return { vpath: entry.record.vpath, offset: newOffset, length, complete: false };
  } finally {
    if (park) parkLease(ctx.deps.leases, target.key, lock);
    else await dropLease(ctx.deps.leases, target.key, lock);
  }
}
