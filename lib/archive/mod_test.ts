import assert from "node:assert/strict";
import { BadRequestError, UnavailableError } from "../errors.ts";
import {
  archiveExtension,
  type ArchiveFormat,
  assertFormatAvailable,
  createArchive,
  isFormatAvailable,
  parseArchiveAlgo,
  sanitizeEntryName,
} from "./mod.ts";
import { tinyEntries } from "./_testing.ts";

Deno.test("parseArchiveAlgo() maps every documented algo value to its format", () => {
  const cases: [string, ArchiveFormat][] = [
    ["", "zip"],
    ["zip", "zip"],
    ["true", "zip"],
    ["tar", "tar"],
    ["targz", "tar.gz"],
    ["tarbz2", "tar.bz2"],
    ["tarxz", "tar.xz"],
    ["tarlz4", "tar.lz4"],
    ["tarsz", "tar.sz"],
    ["tarbr", "tar.br"],
    ["tarzst", "tar.zst"],
  ];
  for (const [algo, format] of cases) assert.equal(parseArchiveAlgo(algo), format, algo);
});

Deno.test("parseArchiveAlgo() rejects unknown values with a 400 that names the value", () => {
  for (const algo of ["rar", "tar.gz", "ZIP", "toString", "__proto__", "tar gz"]) {
    assert.throws(() => parseArchiveAlgo(algo), (err: unknown) => {
      assert.ok(err instanceof BadRequestError);
      assert.equal(err.status, 400);
      assert.ok(err.message.includes(`"${algo}"`), err.message);
      return true;
    });
  }
});

Deno.test("archiveExtension() gives the dotted extension of each format", () => {
  assert.equal(archiveExtension("zip"), ".zip");
  assert.equal(archiveExtension("tar"), ".tar");
  assert.equal(archiveExtension("tar.gz"), ".tar.gz");
  assert.equal(archiveExtension("tar.sz"), ".tar.sz");
  assert.equal(archiveExtension("tar.zst"), ".tar.zst");
});

Deno.test("sanitizeEntryName() turns backslashes into underscores and cleans separators", () => {
  assert.equal(sanitizeEntryName("..\\..\\evil.sh"), ".._.._evil.sh");
  assert.equal(sanitizeEntryName("a\\b.txt"), "a_b.txt");
  assert.equal(sanitizeEntryName("a//b///c.txt"), "a/b/c.txt");
  assert.equal(sanitizeEntryName("./a/./b/"), "a/b");
  assert.equal(sanitizeEntryName("dir/"), "dir");
  assert.equal(sanitizeEntryName("ünï 文件.txt"), "ünï 文件.txt");
  assert.equal(sanitizeEntryName("..."), "...");
  assert.equal(sanitizeEntryName("a/..b/c"), "a/..b/c");
});

Deno.test("sanitizeEntryName() refuses empty, absolute and escaping names", () => {
  for (const name of ["", ".", "./", "/", "/etc/passwd", "../x", "a/../b", "a/..", "..", "a\0b"]) {
    assert.equal(sanitizeEntryName(name), null, JSON.stringify(name));
  }
});

Deno.test("assertFormatAvailable() throws a 503 naming the tool when bzip2 or xz is missing", async () => {
  const tools = { bzip2: "/nonexistent/bzip2", xz: "/nonexistent/xz" };
  for (const [format, tool] of [["tar.bz2", "bzip2"], ["tar.xz", "xz"]] as const) {
    await assert.rejects(() => assertFormatAvailable(format, { tools }), (err: unknown) => {
      assert.ok(err instanceof UnavailableError);
      assert.equal(err.status, 503);
      assert.ok(err.message.includes(`"${tool}"`), err.message);
      return true;
    });
    assert.equal(await isFormatAvailable(format, { tools }), false);
  }
});

Deno.test("isFormatAvailable() is true for the formats that need no system tool", async () => {
  for (const format of ["zip", "tar", "tar.gz", "tar.lz4", "tar.sz", "tar.br", "tar.zst"] as const) {
    assert.equal(await isFormatAvailable(format), true, format);
  }
});

Deno.test("createArchive() errors the stream with the 503 when the tool is missing", async () => {
  const stream = createArchive(tinyEntries(3), { format: "tar.xz", tools: { xz: "/nonexistent/xz" } });
  await assert.rejects(() => new Response(stream).arrayBuffer(), (err: unknown) => {
    assert.ok(err instanceof UnavailableError, String(err));
    return true;
  });
});

Deno.test("createArchive() of no entries is a valid empty archive", async () => {
  const empty = (async function* () {})();
  const zip = new Uint8Array(await new Response(createArchive(empty, { format: "zip" })).arrayBuffer());
  assert.equal(zip.length, 22);
  assert.deepEqual([...zip.subarray(0, 4)], [0x50, 0x4b, 0x05, 0x06]);
  const tar = new Uint8Array(
    await new Response(createArchive((async function* () {})(), { format: "tar" })).arrayBuffer(),
  );
  assert.equal(tar.length, 10240);
  assert.ok(tar.every((b) => b === 0));
});
