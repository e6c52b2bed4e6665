/** HTTP tests of reading the audit log: filters and paging, who may read it, the CSV export, the sweep. */
import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import { captureLog } from "./_log.ts";
import { audit, type AuditEntry, purgeAudit } from "../../lib/audit/mod.ts";
import { entries, login } from "./_audit.ts";

Deno.test("audit: filters by user, action, path and time; a cursor pages newest first", async () => {
  const t = await testApp();
  let clock = Date.UTC(2026, 0, 1);
  t.deps.now = () => clock;
  try {
    for (let i = 0; i < 5; i++) {
      clock += 60_000;
      await audit(t.deps, {
        user: i % 2 ? "bob" : "carol",
        action: i < 3 ? "file.save" : "share.use",
        path: `/p${i}`,
        client: "c",
        status: 200,
      });
    }
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + (i + 1) * 60_000).toISOString();
    assert.deepEqual((await entries(t, "?user=BOB")).map((e) => e.path), ["/p3", "/p1"]);
    assert.deepEqual((await entries(t, "?action=share")).map((e) => e.path), ["/p4", "/p3"]);
    assert.deepEqual((await entries(t, "?action=share.use&user=carol")).map((e) => e.path), ["/p4"]);
    assert.deepEqual((await entries(t, "?path=p2")).map((e) => e.path), ["/p2"]);
    assert.deepEqual((await entries(t, `?from=${at(1)}&to=${at(3)}`)).map((e) => e.path), [
      "/p3",
      "/p2",
      "/p1",
    ]);
    // Pages of two, then the next with the cursor, until none is left.
    const seen: string[] = [];
    let cursor: string | null = "";
    do {
      const res = await t.request(`/api/audit?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { as: "admin" });
      const body: { entries: AuditEntry[]; cursor: string | null } = await res.json();
      seen.push(...body.entries.map((e) => e.path));
      cursor = body.cursor;
    } while (cursor);
    assert.deepEqual(seen, ["/p4", "/p3", "/p2", "/p1", "/p0"]);
    for (const bad of ["from=yesterday", "to=-1", "cursor=x;y", "limit=0", "limit=5000", "format=xml"]) {
      assert.equal((await t.request(`/api/audit?${bad}`, { as: "admin" })).status, 400, bad);
    }
  } finally {
    await t.close();
  }
});

Deno.test("audit: only admins read it (403), anonymous 401", async () => {
  const t = await testApp({
    users: [{ username: "alice", perm: { create: true, modify: true, delete: true } }],
  });
  try {
    assert.equal((await t.request("/api/audit")).status, 401);
    assert.equal((await t.request("/api/audit", { as: "alice" })).status, 403);
    assert.equal((await t.request("/api/audit?format=csv", { as: "alice" })).status, 403);
  } finally {
    await t.close();
  }
});

Deno.test("audit: CSV export escapes hostile values (commas, quotes, line breaks, formulas)", async () => {
  const t = await testApp();
  try {
    // Every text field quoted; a formula defused wherever a cell may start (also after `;`, the separator of
    // spreadsheets in locales whose decimal mark is a comma). Failed logins of one client: at most 10 a minute
    // are recorded one by one (lib/audit/flood.ts).
    const table: [string, string][] = [
      ["a,b", '"a,b"'],
      ['say "hi"', '"say ""hi"""'],
      ["line\nbreak", '"line\nbreak"'],
      ["=cmd|' /C calc'!A0", `"'=cmd|' /C calc'!A0"`],
      ["+1", `"'+1"`],
      ["@SUM(A1)", `"'@SUM(A1)"`],
      ['=HYPERLINK("x",1)', `"'=HYPERLINK(""x"",1)"`],
      ["x;=cmd|' /C calc'!A0", `"x;'=cmd|' /C calc'!A0"`],
      ["x;\t-1;@y", `"x;'\t'-1;'@y"`],
    ];
    for (const [value] of table) {
      await t.request("/api/login", login(value, "x"));
    }
    const res = await t.request("/api/audit?format=csv&action=login", { as: "admin" });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("Content-Type") ?? "", /^text\/csv/);
    assert.match(res.headers.get("Content-Disposition") ?? "", /attachment/);
    const text = await res.text();
    assert.ok(text.startsWith("time,user,action,path,target,client,status,ok,detail\r\n"));
    const rows = text.split("\r\n").slice(1, -1);
    assert.equal(rows.length, table.length);
    // Newest first: the last login is the first row.
    table.reverse().forEach(([value, cell], i) => {
      const rest = rows[i].slice(rows[i].indexOf(",") + 1);
      assert.ok(rest.startsWith(cell + ',"login",'), `${JSON.stringify(value)} → ${JSON.stringify(rows[i])}`);
    });
  } finally {
    await t.close();
  }
});

Deno.test("audit: the sweep removes entries older than --audit-days; 0 stores none", async () => {
  const t = await testApp({ config: { auditDays: 2 } });
  const day = 86_400_000;
  let clock = Date.UTC(2026, 5, 1);
  t.deps.now = () => clock;
  try {
    for (let i = 0; i < 4; i++) {
      await audit(t.deps, { user: "u", action: "file.save", path: `/d${i}`, client: "c", status: 200 });
      clock += day;
    }
    // Now: 4 days after the first entry; 2 days kept → entries of days 2 and 3 stay.
    assert.equal(await purgeAudit(t.deps), 2);
    assert.deepEqual((await entries(t)).map((e) => e.path), ["/d3", "/d2"]);
    assert.equal(await purgeAudit(t.deps), 0);
    t.deps.config = { ...t.deps.config, auditDays: 0 };
    await audit(t.deps, { user: "u", action: "file.save", path: "/off", client: "c", status: 200 });
    assert.equal(await purgeAudit(t.deps), 2);
    assert.deepEqual(await entries(t), []);
  } finally {
    await t.close();
  }
});

Deno.test("audit: a failed write is a warning, never an error of the request", async () => {
  const t = await testApp();
  const logs = captureLog();
  try {
    const broken = {
      ...t.deps,
      kv: {
        atomic: () => ({ set: () => {}, commit: () => Promise.reject(new Error("disk full")) }),
      } as unknown as Deno.Kv,
    };
    await audit(broken, { user: "u", action: "file.save", client: "c", status: 200 });
    assert.ok(logs.lines.some((l) => l.level === "warn" && l.line.includes("disk full")));
    assert.deepEqual(logs.errors(), []);
  } finally {
    logs.stop();
    await t.close();
  }
});
