import assert from "node:assert/strict";
import { checkEntryName } from "./entry_name.ts";

Deno.test("checkEntryName() splits safe names and refuses hostile ones", () => {
  const table: [string, ReturnType<typeof checkEntryName>][] = [
    ["a/b.txt", { ok: true, segments: ["a", "b.txt"] }],
    ["./a//b/", { ok: true, segments: ["a", "b"] }],
    ["win\\dir\\f.txt", { ok: true, segments: ["win", "dir", "f.txt"] }],
    ["../x", { ok: false, hostile: true, reason: "traversal" }],
    ["a/../../x", { ok: false, hostile: true, reason: "traversal" }],
    ["..\\x", { ok: false, hostile: true, reason: "traversal" }],
    ["/etc/passwd", { ok: false, hostile: true, reason: "absolute" }],
    ["\\\\server\\share", { ok: false, hostile: true, reason: "absolute" }],
    ["c:evil", { ok: false, hostile: true, reason: "absolute" }],
    ["./", { ok: false, hostile: false, reason: "empty" }],
    ["a\u0000b", { ok: false, hostile: false, reason: "bad_name" }],
    ["line\nbreak", { ok: false, hostile: false, reason: "bad_name" }],
    ["c1\u0085", { ok: false, hostile: false, reason: "bad_name" }],
    ["x".repeat(256), { ok: false, hostile: false, reason: "bad_name" }],
  ];
  for (const [name, verdict] of table) assert.deepEqual(checkEntryName(name), verdict, JSON.stringify(name));
});
