import assert from "node:assert/strict";
import { vpathOf } from "./router.ts";

Deno.test("vpathOf() reads files-page URLs only and decodes them as the server does", () => {
  const table: [string, string | null][] = [
    ["/files", "/"],
    ["/files/", "/"],
    ["/files/a%20b/c%21", "/a b/c!"],
    ["/files/bad%zz/", "/bad%zz/"],
    ["/filesx/a", null],
    ["/settings/profile", null],
    ["/share/abc/files/x", null],
  ];
  for (const [path, want] of table) assert.equal(vpathOf(path), want, path);
});
