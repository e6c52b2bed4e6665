/** GET /api/usage (docs/api.md#disk-usage): size and use of the file system holding a folder. */
import { NotFoundError } from "../errors.ts";
import type { StoredUser, Usage } from "../types.ts";
import { type QuotaDeps, quotaUsage } from "../quota.ts";
import { type GateContext, resolveScoped } from "./gate.ts";

/**
 * Disk usage of the file system containing `vpath` (statfs); `{0, 0}` for a file. For a user with a quota
 * (`options.quota`): the quota as total and their usage (scope and trash) as used.
 */
export async function getUsage(
  ctx: GateContext,
  vpath: string,
  options: { quota?: { deps: QuotaDeps; user: StoredUser } } = {},
): Promise<Usage> {
  const p = await resolveScoped(ctx, vpath, "read");
  if (p.lstat === null || p.stat === null) throw new NotFoundError();
  if (!p.stat.isDirectory) return { total: 0, used: 0 };
  const quota = options.quota && await quotaUsage(options.quota.deps, options.quota.user);
  if (quota) return quota;
  const { statfs } = await import("node:fs/promises");
  const s = await statfs(p.real);
  const unit = (s as { frsize?: number }).frsize || s.bsize;
  // "free" includes the blocks reserved for root, so used = total - bfree (like df's "Used").
  return { total: s.blocks * unit, used: (s.blocks - s.bfree) * unit };
}
