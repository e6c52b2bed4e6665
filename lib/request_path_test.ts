import assert from "node:assert/strict";
import { decodePath, decodePathLenient, pathBelow, vpathOfParam } from "./request_path.ts";

Deno.test("vpathOfParam() puts the decoded parameter under the root", () => {
  assert.equal(vpathOfParam(undefined), "/");
  assert.equal(vpathOfParam(""), "/");
  assert.equal(vpathOfParam("a/b c/"), "/a/b c/");
  // The gate, not this helper, refuses climbing out: the text passes unchanged.
  assert.equal(vpathOfParam("../x"), "/../x");
});

Deno.test("pathBelow() answers only for the prefix and what lies below it", () => {
  const table: [string, string, string | null][] = [
    ["/files", "/files", "/"],
    ["/files/", "/files", "/"],
    ["/files/a%20b/", "/files", "/a%20b/"],
    ["/filesx", "/files", null],
    ["/other/files/a", "/files", null],
    ["/base/dav/x", "/base/dav", "/x"],
  ];
  for (const [path, prefix, want] of table) assert.equal(pathBelow(path, prefix), want, path);
});

Deno.test("decodePath() decodes each segment and refuses malformed escapes", () => {
  const table: [string, string | null][] = [
    ["/a%20b/c", "/a b/c"],
    ["/a%2Fb", "/a/b"],
    ["/%E2%82%AC/", "/€/"],
    ["/%zz", null],
    ["/a/%", null],
    ["/%C3", null],
  ];
  for (const [raw, want] of table) assert.equal(decodePath(raw), want, raw);
});

Deno.test("decodePathLenient() keeps a malformed segment as written and decodes the others", () => {
  assert.equal(decodePathLenient("/a%20b/%zz/c%21"), "/a b/%zz/c!");
  assert.equal(decodePathLenient("/"), "/");
});
