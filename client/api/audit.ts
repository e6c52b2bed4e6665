// This module is browser-compatible.
/** The audit log: `/api/audit` (admins). */
import type { AuditEntry, AuditQuery } from "../../lib/types.ts";
import { apiJson } from "./http.ts";

/** The query string of audit filters (empty ones left out), with extra parameters. */
export function auditSearch(filter: AuditQuery, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filter, ...extra })) {
    if (v !== undefined && v !== "") q.set(k, String(v));
  }
  return q.toString();
}

/** One page of the audit log, newest first (admins); `cursor` continues where the last page ended. */
export function listAudit(
  filter: AuditQuery,
  cursor?: string,
): Promise<{ entries: AuditEntry[]; cursor: string | null }> {
  const extra: Record<string, string> = cursor ? { cursor, limit: "100" } : { limit: "100" };
  return apiJson(`/audit?${auditSearch(filter, extra)}`);
}
