/**
 * The data of the settings pages that used to load in the browser (profile, trash, audit), loaded on the server
 * with the `lib/` functions their API routes use, so the page renders with it; their islands ask the API only
 * when the page came without (after a change, or for another page of the audit log).
 */
import { listAppPasswords } from "./auth/app_passwords.ts";
import { twoFactorStatus } from "./auth/twofa.ts";
import { auditPage } from "./audit/query.ts";
import type { RequestContext } from "./request_context.ts";
import { listTrash } from "./trash/mod.ts";
import type { AppPasswordInfo, AuditEntry, TrashItem, TwoFactorStatus } from "./types.ts";

/** What the profile page shows besides the session user: the two-factor and app-password cards' data. */
export interface ProfilePageData {
  /** GET /api/twofa; null when the card is not shown (proxy or no authentication). */
  twoFactor: TwoFactorStatus | null;
  /** GET /api/apppasswords; null when the card is not shown. */
  appPasswords: AppPasswordInfo[] | null;
}

/** The profile page's data; the account cards exist with json and hook authentication only. */
export async function findProfilePage(ctx: RequestContext): Promise<ProfilePageData> {
  const method = ctx.deps.config.authMethod;
  if (method !== "json" && method !== "hook") return { twoFactor: null, appPasswords: null };
  const [twoFactor, appPasswords] = await Promise.all([
    twoFactorStatus(ctx.kv, ctx.settings, ctx.user),
    listAppPasswords(ctx.kv, ctx.user.id),
  ]);
  return { twoFactor, appPasswords };
}

/** The trash page's items: what GET /api/trash answers. */
export function listTrashPage(ctx: RequestContext): Promise<TrashItem[]> {
  return listTrash(ctx.deps, ctx);
}

/** Entries of one page of the audit log, on the page and through the API. */
export const AUDIT_PAGE_SIZE = 100;

/** The audit page's first screen: the newest entries, unfiltered, as GET /api/audit?limit=100 answers. */
export function findAuditFirstPage(
  ctx: RequestContext,
): Promise<{ entries: AuditEntry[]; cursor: string | null }> {
  return auditPage(ctx.kv, {}, { limit: AUDIT_PAGE_SIZE });
}
