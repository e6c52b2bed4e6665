import assert from "node:assert/strict";
import { csvField, filterFromQuery, matches } from "./query.ts";
import type { AuditEntry } from "./mod.ts";

Deno.test("csvField(): quotes separators and defuses formulas", () => {
  const table: [string, string][] = [
    ["", ""],
    ["a b", "a b"],
    ["a,b", '"a,b"'],
    ['"', '""""'],
    ["a\r\nb", '"a\r\nb"'],
    ["=1+1", "'=1+1"],
    ["\t=1", "'\t=1"],
    ["-", "'-"],
    ["=a,b", `"'=a,b"`],
    ["a=b", "a=b"],
  ];
  for (const [value, want] of table) assert.equal(csvField(value), want, JSON.stringify(value));
});

Deno.test("matches(): user case-insensitive, action exact or its group, path in path or target", () => {
  const e: AuditEntry = {
    id: "x",
    time: 1,
    user: "Alice",
    action: "file.copy",
    path: "/docs/a.txt",
    target: "/backup/a.txt",
    client: "c",
    status: 200,
    ok: true,
    detail: "",
  };
  const f = (q: Record<string, string>) => filterFromQuery((n) => q[n]);
  assert.equal(matches(e, f({ user: "alice" })), true);
  assert.equal(matches(e, f({ user: "ali" })), false);
  assert.equal(matches(e, f({ action: "file" })), true);
  assert.equal(matches(e, f({ action: "fil" })), false);
  assert.equal(matches(e, f({ action: "file.copy" })), true);
  assert.equal(matches(e, f({ path: "backup" })), true);
  assert.equal(matches(e, f({ path: "/tmp" })), false);
  assert.throws(() => f({ from: "tomorrow" }));
  assert.equal(f({ from: "2026-01-02" }).from, Date.UTC(2026, 0, 2));
});
