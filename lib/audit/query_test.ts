import assert from "node:assert/strict";
import { csvField, csvRow, filterFromQuery, matches } from "./query.ts";
import type { AuditEntry } from "./mod.ts";

Deno.test("csvField(): quotes every text field and defuses formulas wherever a cell may start", () => {
  const table: [string, string][] = [
    ["", '""'],
    ["a b", '"a b"'],
    ["a,b", '"a,b"'],
    ['"', '""""'],
    ["a\r\nb", '"a\r\nb"'],
    ["=1+1", `"'=1+1"`],
    ["\t=1", `"'\t'=1"`],
    ["-", `"'-"`],
    ["=a,b", `"'=a,b"`],
    ["a=b", '"a=b"'],
    // Opened with `;` as the separator (or `,` inside the quotes), each piece is a cell of its own.
    ["/x;=HYPERLINK(1)", `"/x;'=HYPERLINK(1)"`],
    ["a;+1;-2;@x", `"a;'+1;'-2;'@x"`],
    ["a,=1", `"a,'=1"`],
    ["a\n=1", `"a\n'=1"`],
    ["a;\t;\r", `"a;'\t;'\r"`],
    ["/a-b;c@d", '"/a-b;c@d"'],
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

Deno.test("csvRow(): the server's own columns bare, every text column quoted", () => {
  const row = csvRow({
    id: "x",
    time: Date.UTC(2026, 0, 2, 3, 4, 5),
    user: "a;=1",
    action: "file.save",
    path: "/p;-x",
    target: "",
    client: "203.0.113.9",
    status: 403,
    ok: false,
    detail: "@x",
  });
  assert.equal(
    row,
    `2026-01-02T03:04:05.000Z,"a;'=1","file.save","/p;'-x","","203.0.113.9",403,false,"'@x"\r\n`,
  );
});
