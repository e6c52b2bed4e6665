/** Helpers of the audit HTTP tests: a login request and the entries of the log. */
import assert from "node:assert/strict";
import { type TestApp } from "../_helpers.ts";
import { type AuditEntry } from "../../lib/audit/mod.ts";

export const login = (username: string, password: string): RequestInit => ({
  method: "POST",
  body: JSON.stringify({ username, password }),
  headers: { "Content-Type": "application/json", "X-Forwarded-For": "203.0.113.9" },
});

export async function entries(t: TestApp, query = ""): Promise<AuditEntry[]> {
  const res = await t.request(`/api/audit${query}`, { as: "admin" });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()).entries;
}

export function find(
  list: AuditEntry[],
  action: string,
  pred: (e: AuditEntry) => boolean = () => true,
): AuditEntry {
  const e = list.find((x) => x.action === action && pred(x));
  assert.ok(e, `no ${action} entry in ${JSON.stringify(list.map((x) => x.action))}`);
  return e;
}
