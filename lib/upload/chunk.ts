/** tus PATCH: appending one chunk to an upload, under its lease lock, and completing it at full length. */
import { BadRequestError, ConflictError, LockedError, PayloadTooLargeError } from "../errors.ts";
import { writeChunk } from "./chunk_writer.ts";
import { stagingPath } from "./staging.ts";
import { acquireUploadLock, keepUploadLock, releaseUploadLock, saveUpload } from "./store.ts";
import { assertChunkContentType, parseUploadOffset } from "./protocol.ts";
import { completeUpload, getOwnUpload, getVerifiedUpload, resolveTarget } from "./target.ts";
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
 * to the committed offset (409), body not longer than what is left (413; nothing kept), no other chunk
 * running (423). A chunk cut short by the client keeps what arrived. At full length the file is moved into
 * place (override needs `modify` then, like at creation).
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
  const first = await getVerifiedUpload(ctx, target);
  const { length } = first.record;
  if (offset > length) {
    throw new BadRequestError(`upload offset ${offset} exceeds declared length ${length}`, {
      code: "offset_too_large",
    });
  }
  if (offset !== first.record.offset) throw new ConflictError("offset_mismatch");
  const bodyLength = declaredBodyLength(options.contentLength);
  if (bodyLength !== null && bodyLength > length - offset) throw new PayloadTooLargeError("chunk_too_large");

  const { kv } = ctx.deps;
  const lock = await acquireUploadLock(kv, target.key, { now: ctx.deps.now() });
  if (!lock) throw new LockedError("upload_locked");
  // Completion and the offset commit free the lock themselves; anything else must release it.
  let released = false;
  try {
    // Another chunk may have been committed between the first read and the lock.
    const entry = await getOwnUpload(ctx, target);
    if (entry.record.offset !== offset) throw new ConflictError("offset_mismatch");
    const keeper = keepUploadLock(kv, lock, { now: ctx.deps.now });
    const result = await writeChunk(stagingPath(ctx.deps.config.uploadDir, entry.record.id), options.body, {
      offset,
      limit: length - offset,
    }).finally(() =>
      keeper.stop().then((held) => held || Promise.reject(new LockedError("upload_lock_lost")))
    );
    if (result.overflow) throw new PayloadTooLargeError("chunk_too_large");
    const newOffset = offset + result.written;
    if (newOffset === length && !result.aborted) {
      released = true;
      await completeUpload(ctx, target, { entry, lock });
      return { vpath: entry.record.vpath, offset: newOffset, length, complete: true };
    }
    const record = { ...entry.record, offset: newOffset, updatedAt: ctx.deps.now() };
    released =
      await saveUpload(kv, target.key, record, { expect: entry.versionstamp, lock, release: true }) !== null;
    if (!released) {
      // Terminated (or taken over after a lost lease) while the chunk streamed.
      throw new ConflictError("upload_changed");
    }
    return { vpath: record.vpath, offset: newOffset, length, complete: false };
  } finally {
    if (!released) await releaseUploadLock(kv, lock);
  }
}
