import assert from "node:assert/strict";
import { encodePath, folderPath, joinPath, parentPath } from "./url_path.ts";

Deno.test("encodePath() encodes each segment and keeps the slashes", () => {
  const cases: [string, string][] = [
    ["/", "/"],
    ["/a b/c#", "/a%20b/c%23"],
    ["/100%/x?y", "/100%25/x%3Fy"],
    ["/..%2f/", "/..%252f/"],
    ["/ü/日本", "/%C3%BC/%E6%97%A5%E6%9C%AC"],
    ["a/b\\c", "a/b%5Cc"],
  ];
  for (const [path, want] of cases) {
    assert.equal(encodePath(path), want, path);
    assert.equal(decodeURIComponent(encodePath(path)), path, path);
  }
});

Deno.test("joinPath(), parentPath() and folderPath() do folder arithmetic on vpaths", () => {
  assert.equal(joinPath("/a/", "b"), "/a/b");
  assert.equal(joinPath("/a", "b"), "/a/b");
  assert.equal(joinPath("/", "b"), "/b");
  assert.equal(parentPath("/a/b.txt"), "/a/");
  assert.equal(parentPath("/a/b/"), "/a/");
  assert.equal(parentPath("/a"), "/");
  assert.equal(parentPath("/"), "/");
  assert.equal(folderPath("/a"), "/a/");
  assert.equal(folderPath("/a//"), "/a/");
  assert.equal(folderPath(""), "/");
});
