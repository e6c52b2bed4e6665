import assert from "node:assert/strict";
import {
  cleanVpath,
  commonDir,
  extensionOf,
  isSameOrInside,
  joinVpath,
  vpathBase,
  vpathDir,
} from "./path.ts";

Deno.test("cleanVpath() canonicalises like filebrowser (backslash is a plain character)", () => {
  const table: [string, string, boolean][] = [
    ["/a\\b.txt", "/a\\b.txt", false],
    ["/allow/../Secret.txt", "/Secret.txt", false],
    ["Secret.txt", "/Secret.txt", false],
    ["//a///b", "/a/b", false],
    ["", "/", false],
    ["/", "/", false],
    ["/../../etc/passwd", "/etc/passwd", false],
    ["/docs/", "/docs", true],
    ["/a/./b/../c/", "/a/c", true],
    ["/..", "/", false],
    ["/allow\\..\\Secret.txt", "/allow\\..\\Secret.txt", false],
  ];
  for (const [raw, path, slash] of table) {
    assert.deepEqual(cleanVpath(raw), { path, trailingSlash: slash }, raw);
  }
});

Deno.test("commonDir() finds the longest common directory", () => {
  assert.equal(commonDir(["/home/user/file1", "/home/user/file2"]), "/home/user");
  assert.equal(commonDir(["/home/user/folder", "/home/user/folder/file"]), "/home/user/folder");
  assert.equal(commonDir(["/home/user/folder", "/home/user/folder/../folder2"]), "/home/user");
  assert.equal(commonDir(["/home/user/folder", "/etc/file"]), "");
  assert.equal(commonDir(["/a/bc", "/a/b"]), "/a");
});

Deno.test("vpath helpers join, split and compare by whole segments", () => {
  assert.equal(joinVpath("/", "a"), "/a");
  assert.equal(joinVpath("/a", "b"), "/a/b");
  assert.equal(vpathBase("/a/b.txt"), "b.txt");
  assert.equal(vpathBase("/"), "");
  assert.equal(vpathDir("/a/b"), "/a");
  assert.equal(vpathDir("/a"), "/");
  assert.ok(isSameOrInside("/a", "/a/b"));
  assert.ok(isSameOrInside("/a", "/a"));
  assert.ok(!isSameOrInside("/a", "/ab"));
  assert.equal(extensionOf("a.tar.gz"), ".gz");
  assert.equal(extensionOf(".bashrc"), ".bashrc");
  assert.equal(extensionOf("Makefile"), "");
});
