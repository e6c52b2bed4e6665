import assert from "node:assert/strict";
import { configure, type Entry, Uint8ArrayReader, ZipReader } from "@zip.js/zip.js";
import { HOSTILE_ENTRY_NAMES, ODD_ENTRY_NAMES, rawZip, unicodePathField, zipOf } from "./_testing.ts";
import {
  type RandomAccess,
  readZipDirectory,
  type ZipDirectoryEntry,
  ZipFormatError,
} from "./zip_directory.ts";

configure({ useWebWorkers: false });

const enc = new TextEncoder();

/** {@link RandomAccess} over bytes, counting the bytes read. */
function memory(bytes: Uint8Array): RandomAccess & { bytesRead: number } {
  return {
    size: bytes.length,
    bytesRead: 0,
    readAt(into, position) {
      const part = bytes.subarray(position, position + into.length);
      into.set(part);
      this.bytesRead += part.length;
      return Promise.resolve(part.length);
    },
  };
}

type Seen =
  & Pick<
    ZipDirectoryEntry,
    | "name"
    | "directory"
    | "symlink"
    | "uncompressedSize"
    | "compressedSize"
    | "crc32"
    | "method"
    | "encrypted"
  >
  & { offset: number };

async function ours(bytes: Uint8Array): Promise<Seen[]> {
  const out: Seen[] = [];
  for await (const e of readZipDirectory(memory(bytes))) {
    const { name, directory, symlink, uncompressedSize, compressedSize, crc32, method, encrypted } = e;
    out.push({
      name,
      directory,
      symlink,
      uncompressedSize,
      compressedSize,
      crc32,
      method,
      encrypted,
      offset: e.localHeaderOffset,
    });
  }
  return out;
}

/** What zip.js sees (names not validated: the hostile ones are what we compare). */
async function theirs(bytes: Uint8Array): Promise<Seen[]> {
  const reader = new ZipReader(new Uint8ArrayReader(bytes), { filenameValidation: "tolerant" });
  const out: Seen[] = [];
  for await (const e of reader.getEntriesGenerator() as AsyncIterable<Entry>) {
    out.push({
      name: e.filename,
      directory: e.directory,
      symlink: e.symlink,
      uncompressedSize: e.uncompressedSize,
      compressedSize: e.compressedSize,
      crc32: e.signature ?? 0,
      method: e.compressionMethod,
      encrypted: e.encrypted,
      offset: e.offset,
    });
  }
  return out;
}

async function run(cmd: string, args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "null", stderr: "piped" }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

Deno.test("readZipDirectory() reads what the system zip writes like zip.js does (folders, symlinks, comment, ZIP64)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/t/sub/deeper`, { recursive: true });
    await Deno.writeTextFile(`${dir}/t/a.txt`, "hello ".repeat(1000));
    await Deno.writeTextFile(`${dir}/t/sub/b.txt`, "b");
    await Deno.writeTextFile(`${dir}/t/sub/empty`, "");
    await Deno.writeTextFile(`${dir}/t/caf\u00e9 \u{1f600}.txt`, "utf-8 name");
    await Deno.symlink("a.txt", `${dir}/t/link`);
    await run("zip", ["-qry", "plain.zip", "t"], dir);
    await run("zip", ["-qry", "-fz", "forced64.zip", "t"], dir);
    await run("zip", ["-qry", "commented.zip", "t"], dir);
    await run("sh", ["-c", "printf 'a comment' | zip -qz commented.zip"], dir);
    await run("sh", ["-c", "printf 'streamed' | zip -q streamed.zip -"], dir);
    for (const archive of ["plain.zip", "forced64.zip", "commented.zip", "streamed.zip"]) {
      const bytes = await Deno.readFile(`${dir}/${archive}`);
      const got = await ours(bytes);
      assert.deepEqual(got, await theirs(bytes), archive);
      if (archive === "streamed.zip") continue;
      const byName = new Map(got.map((e) => [e.name, e]));
      assert.equal(byName.get("t/sub/deeper/")?.directory, true, archive);
      assert.equal(byName.get("t/link")?.symlink, true, archive);
      assert.equal(byName.get("t/a.txt")?.uncompressedSize, 6000, archive);
      assert.equal(byName.get("t/a.txt")?.method, 8, archive);
      assert.ok(byName.has("t/caf\u00e9 \u{1f600}.txt"), archive);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readZipDirectory() names hostile and odd entries exactly as zip.js does", async () => {
  const names = [...HOSTILE_ENTRY_NAMES, ...ODD_ENTRY_NAMES, "plain.txt", "dir/"];
  const written = await zipOf(names.map((name) => ({ name, data: name })));
  assert.deepEqual(await ours(written), await theirs(written));
  assert.deepEqual((await ours(written)).map((e) => e.name), names);
  // The same names as raw bytes without the UTF-8 flag, and with it.
  for (const flags of [0, 0x800]) {
    const raw = rawZip(names.map((name) => ({ name, data: "x", flags }))).bytes;
    assert.deepEqual(await ours(raw), await theirs(raw), `flags ${flags}`);
  }
});

Deno.test("readZipDirectory() decodes names without the UTF-8 flag as zip.js does (CP437, Unicode Path field)", async () => {
  const cp437 = new Uint8Array([0x63, 0x61, 0x66, 0x82, 0x2e, 0x74, 0x78, 0x74]); // "café.txt" in CP437
  const slip = enc.encode("../evil.txt");
  const every = new Uint8Array(256).map((_, i) => i);
  const table: [string, Parameters<typeof rawZip>[0][number], string | null][] = [
    ["CP437 bytes", { name: cp437 }, "caf\u00e9.txt"],
    ["control bytes are CP437 symbols", { name: new Uint8Array([0x61, 0x01, 0x7f]) }, "a\u263a\u2302"],
    ["valid UTF-8 without the flag", { name: enc.encode("\u00e9t\u00e9") }, "\u00e9t\u00e9"],
    ["the flag with invalid UTF-8", { name: cp437, flags: 0x800 }, "caf\ufffd.txt"],
    ["every byte", { name: every }, null],
    [
      "a Unicode Path field",
      { name: cp437, extra: unicodePathField("caf\u00e9-u.txt", cp437) },
      "caf\u00e9-u.txt",
    ],
    ["a Unicode Path field that hides a slip", {
      name: enc.encode("ok.txt"),
      extra: unicodePathField("../x", enc.encode("ok.txt")),
    }, "../x"],
    [
      "a Unicode Path field with a stale CRC",
      { name: cp437, extra: unicodePathField("other", cp437, 1) },
      "caf\u00e9.txt",
    ],
    ["a Unicode Path field beside the flag", {
      name: slip,
      flags: 0x800,
      extra: unicodePathField("fine", slip),
    }, "../evil.txt"],
    ["a truncated extra area", { name: cp437, extra: new Uint8Array([0x75, 0x70, 0xff]) }, "caf\u00e9.txt"],
  ];
  for (const [label, file, expected] of table) {
    const bytes = rawZip([file]).bytes;
    const [got] = await ours(bytes);
    const [want] = await theirs(bytes);
    assert.equal(got.name, want.name, label);
    if (expected !== null) assert.equal(got.name, expected, label);
  }
});

Deno.test("readZipDirectory() reads ZIP64 archives and more than 65535 entries", async () => {
  const many = Array.from({ length: 65_600 }, (_, i) => ({ name: `d${i >> 8}/f${i}` }));
  const forced = rawZip(many, { zip64: true }).bytes;
  // Old writers without ZIP64 store the count modulo 65536: accepted, like zip.js does.
  const wrapped = rawZip(many).bytes;
  for (const [label, bytes] of [["zip64", forced], ["wrapped count", wrapped]] as const) {
    let n = 0;
    let last = "";
    for await (const e of readZipDirectory(memory(bytes))) {
      n++;
      last = e.name;
    }
    assert.equal(n, 65_600, label);
    assert.equal(last, "d256/f65599", label);
  }
  const small =
    rawZip([{ name: "a", data: "abc" }, { name: "b/", external: 0o040755 << 16 }], { zip64: true }).bytes;
  assert.deepEqual(await ours(small), await theirs(small));
});

Deno.test("readZipDirectory() reads a huge directory in bounded pieces", async () => {
  const bytes = rawZip(Array.from({ length: 20_000 }, (_, i) => ({ name: `folder/file-${i}.txt` }))).bytes;
  const src = memory(bytes);
  let largest = 0;
  const reads = src.readAt.bind(src);
  src.readAt = (into, position) => {
    largest = Math.max(largest, into.length);
    return reads(into, position);
  };
  let n = 0;
  for await (const _ of readZipDirectory(src)) n++;
  assert.equal(n, 20_000);
  assert.ok(largest <= 64 * 1024 + 22, `largest read ${largest}`);
});

Deno.test("readZipDirectory() accepts data prepended to the archive (self-extractors)", async () => {
  const bytes = rawZip([{ name: "a.txt", data: "a" }, { name: "b.txt", data: "b" }], {
    prepend: enc.encode("#!/bin/sh\nexit 0\n"),
  }).bytes;
  const got = await ours(bytes);
  assert.deepEqual(got, await theirs(bytes));
  assert.equal(got[0].offset, 17);
});

Deno.test("readZipDirectory() finds the end record behind a comment, also one that mimics an end record", async () => {
  const fake = new Uint8Array(22 + 5);
  new DataView(fake.buffer).setUint32(0, 0x06054b50, true);
  fake[20] = 5; // its own "comment" reaches the end of the file: a record of an empty archive
  const files = [{ name: "a.txt", data: "a" }];
  for (const comment of ["", "plain comment", "x".repeat(0xffff), fake]) {
    const bytes = rawZip(files, { comment }).bytes;
    assert.deepEqual((await ours(bytes)).map((e) => e.name), ["a.txt"]);
    assert.deepEqual(await ours(bytes), await theirs(bytes));
  }
  assert.deepEqual(await ours(rawZip([], { comment: "empty" }).bytes), []);
});

/** A damaged copy of `base`: `patch` edits the bytes (a DataView over them). */
function damaged(base: Uint8Array, patch: (v: DataView, b: Uint8Array) => Uint8Array | void): Uint8Array {
  const b = base.slice();
  return patch(new DataView(b.buffer), b) ?? b;
}

Deno.test("readZipDirectory() refuses damaged directories with a 400, never a crash or a hang", async () => {
  const files = [
    { name: "first-file-with-a-long-name.txt", data: "aaaa" },
    { name: "folder/second-file-with-a-name.txt", data: "c" },
    { name: "third-file-with-a-long-name.txt", data: "d" },
  ];
  const z = rawZip(files);
  const z64 = rawZip(files, { zip64: true });
  const second = z.directory + 46 + files[0].name.length;
  const eocdCopy = z.bytes.slice(z.eocd, z.eocd + 22);
  const table: [string, Uint8Array, RegExp][] = [
    ["an empty file", new Uint8Array(0), /too small/],
    ["a few bytes", enc.encode("PK\x05\x06"), /too small/],
    ["no end record", new Uint8Array(4096).fill(7), /no end of central directory/],
    ["a truncated end record", z.bytes.subarray(0, z.bytes.length - 5), /no end of central directory/],
    ["a file cut inside the directory", z.bytes.subarray(0, second + 10), /no end of central directory/],
    [
      "one entry more declared",
      damaged(z.bytes, (v) => v.setUint16(z.eocd + 10, 4, true)),
      /declares 4 entries/,
    ],
    [
      "one entry fewer declared",
      damaged(z.bytes, (v) => v.setUint16(z.eocd + 10, 2, true)),
      /declares 2 entries/,
    ],
    ["an absurd entry count", damaged(z.bytes, (v) => v.setUint16(z.eocd + 10, 0xfffe, true)), /cannot fit/],
    [
      "a directory offset past the end",
      damaged(z.bytes, (v) => v.setUint32(z.eocd + 16, 0x7fffffff, true)),
      /not where the end record says/,
    ],
    [
      "a directory offset into the data",
      damaged(z.bytes, (v) => v.setUint32(z.eocd + 16, 10, true)),
      /lies past the central directory/,
    ],
    [
      "a directory larger than the file",
      damaged(z.bytes, (v) => v.setUint32(z.eocd + 12, 0x7fffffff, true)),
      /larger/,
    ],
    [
      "a directory size that cuts the last entry",
      damaged(z.bytes, (v) => v.setUint32(z.eocd + 12, z.eocd - z.directory - 3, true)),
      /runs past the central directory/,
    ],
    [
      "a name running past the directory",
      damaged(z.bytes, (v) => v.setUint16(second + 28, 0xffff, true)),
      /runs past/,
    ],
    [
      "a broken header signature",
      damaged(z.bytes, (v) => v.setUint32(second, 0x02014b51, true)),
      /no central directory header/,
    ],
    [
      "a local header offset past the directory",
      damaged(z.bytes, (v) => v.setUint32(second + 42, z.directory + 1, true)),
      /lies past the central directory/,
    ],
    [
      "a compressed size past the directory",
      damaged(z.bytes, (v) => v.setUint32(z.directory + 20, 0x7fffffff, true)),
      /lies past the central directory/,
    ],
    ["a split archive", damaged(z.bytes, (v) => v.setUint16(z.eocd + 4, 1, true)), /split archives/],
    [
      "a ZIP64 marker without its locator",
      damaged(z.bytes, (v) => v.setUint32(z.eocd + 16, 0xffffffff, true)),
      /locator is missing/,
    ],
    [
      "a ZIP64 locator pointing nowhere",
      damaged(z64.bytes, (v) => {
        v.setBigUint64(z64.eocd - 20 + 8, 3n, true);
        v.setUint32(z64.eocd64, 0, true);
      }),
      /ZIP64 end of central directory record is missing/,
    ],
    [
      "a ZIP64 locator pointing past its record",
      damaged(z64.bytes, (v) => v.setBigUint64(z64.eocd - 20 + 8, BigInt(z64.eocd64 + 8), true)),
      /ZIP64 end of central directory record is missing/,
    ],
    [
      "an absurd ZIP64 entry count",
      damaged(z64.bytes, (v) => v.setBigUint64(z64.eocd64 + 32, 1n << 50n, true)),
      /cannot fit/,
    ],
    [
      "a ZIP64 count past 2^53",
      damaged(z64.bytes, (v) => v.setBigUint64(z64.eocd64 + 32, 1n << 60n, true)),
      /out of range/,
    ],
    [
      "a ZIP64 directory offset pointing at the end record",
      damaged(z64.bytes, (v) => v.setBigUint64(z64.eocd64 + 48, BigInt(z64.eocd64), true)),
      /not where the end record says/,
    ],
    [
      "a ZIP64 field too short for its sizes",
      damaged(z64.bytes, (v) => v.setUint16(z64.directory + 46 + files[0].name.length + 2, 8, true)),
      /ZIP64 field .* is short/,
    ],
    [
      "two end records that both lead to a directory",
      (() => {
        const copy = eocdCopy.slice();
        const twice = rawZip(files, { comment: copy }).bytes;
        return twice;
      })(),
      /two end of central directory records/,
    ],
  ];
  for (const [label, bytes, message] of table) {
    await assert.rejects(
      Array.fromAsync(readZipDirectory(memory(bytes))),
      (err: unknown) => {
        assert.ok(err instanceof ZipFormatError, `${label}: ${err}`);
        assert.equal(err.status, 400, label);
        assert.equal(err.code, "bad_archive", label);
        assert.match(err.message, /^Cannot extract: the zip archive is damaged or unsupported \(/, label);
        assert.match(err.message, message, `${label}: ${err.message}`);
        return true;
      },
      label,
    );
  }
});
