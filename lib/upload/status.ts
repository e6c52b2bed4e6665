/** tus HEAD/GET: where an upload stands, completing one whose bytes are all there. */
import { dropLease, takeLease } from "./lock.ts";
import { completeUpload, getUploadProgress, resolveTarget } from "./target.ts";
import type { UploadContext, UploadStatus } from "./target.ts";

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
  const lock = await takeLease(ctx.deps.leases, target.key, { now: ctx.deps.now() });
  // A running chunk is finishing it right now: report what is there, the client will see it done.
  if (!lock) return { vpath: record.vpath, offset, length: record.length, complete: false };
  try {
    await completeUpload(ctx, target, { entry, lock });
  } finally {
    await dropLease(ctx.deps.leases, target.key, lock);
  }
  return { vpath: record.vpath, offset, length: record.length, complete: true };
}
