/** tus DELETE: abandoning an upload and its staging data (never the target file). */
import { ForbiddenError, LockedError } from "../errors.ts";
import { removeStagingFile, stagingPath } from "./staging.ts";
import { dropLease, forgetLease, takeLease } from "./lock.ts";
import { deleteUpload } from "./store.ts";
import { getOwnUpload, resolveTarget } from "./target.ts";
import type { UploadContext } from "./target.ts";

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
    const lock = await takeLease(ctx.deps.leases, target.key, { now: ctx.deps.now() });
    if (lock) {
      if (await deleteUpload(kv, target.key, { expect: entry.versionstamp, lock })) {
        forgetLease(ctx.deps.leases, target.key, lock);
        await removeStagingFile(stagingPath(ctx.deps.config.uploadDir, entry.record.id));
        return;
      }
      await dropLease(ctx.deps.leases, target.key, lock);
    }
    if (Date.now() >= deadline) throw new LockedError("upload_locked");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
