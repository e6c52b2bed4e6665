import assert from "node:assert/strict";
import {
  absolutePath,
  canonicalPath,
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

Deno.test("canonicalPath() is the one canonicaliser: hostile input never climbs above / or splits a name", () => {
  const table: [string, string][] = [
    ["", "/"],
    [".", "/"],
    ["..", "/"],
    ["../../../../etc/passwd", "/etc/passwd"],
    ["/a/../../b", "/b"],
    ["//a//b//", "/a/b"],
    ["///", "/"],
    ["a/./b/.", "/a/b"],
    ["/a/...", "/a/..."],
    ["/a/..b/c", "/a/..b/c"],
    // A backslash is a name character on POSIX, never a separator: `..\` stays one segment.
    ["/a\\..\\b", "/a\\..\\b"],
    ["\\..\\..\\etc", "/\\..\\..\\etc"],
    // NUL and control characters are kept: the gate refuses NUL, new names refuse controls.
    ["/a\u0000b/../c", "/c"],
    ["/a\u0000/..", "/"],
    ["/x\n\t\r/y", "/x\n\t\r/y"],
    // Unicode is not normalised: NFC and NFD spellings stay different names.
    ["/caf\u00e9", "/caf\u00e9"],
    ["/cafe\u0301", "/cafe\u0301"],
    ["/\u2025/\uff0e\uff0e/x", "/\u2025/\uff0e\uff0e/x"],
    ["/%2e%2e/x", "/%2e%2e/x"],
  ];
  for (const [raw, want] of table) {
    assert.equal(canonicalPath(raw), want, JSON.stringify(raw));
    assert.equal(canonicalPath(want), want, `idempotent for ${JSON.stringify(raw)}`);
    assert.equal(cleanVpath(raw).path, want, `cleanVpath agrees for ${JSON.stringify(raw)}`);
  }
});

Deno.test("absolutePath() resolves relative paths against cwd and cleans absolute ones", () => {
  assert.equal(absolutePath("data/fb.kv", "/srv/app"), "/srv/app/data/fb.kv");
  assert.equal(absolutePath("../x", "/srv/app"), "/srv/x");
  assert.equal(absolutePath("../../../../x", "/srv"), "/x");
  assert.equal(absolutePath("/var//lib/./fb/", "/srv"), "/var/lib/fb");
  assert.equal(absolutePath(".", "/srv/app"), "/srv/app");
});
