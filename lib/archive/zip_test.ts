import assert from "node:assert/strict";
import { join } from "node:path";
import zlib from "node:zlib";
import { type ArchiveEntry, createArchive } from "./mod.ts";
import {
  BACKSLASH_STORED,
  buildTree,
  collect,
  type Expected,
  hasCommand,
  readTree,
  run,
  tinyEntries,
  walkEntries,
} from "./_testing.ts";

interface CentralInfo {
  name: string;
  flags: number;
  crc: number;
  compressed: number;
  uncompressed: number;
  offset: number;
}

/** Reads the central directory (ZIP64 aware) with a parser written for this test. */
function readCentral(bytes: Uint8Array): CentralInfo[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u64 = (at: number) => v.getUint32(at, true) + v.getUint32(at + 4, true) * 2 ** 32;
  const eocd = bytes.length - 22;
  assert.equal(v.getUint32(eocd, true), 0x06054b50);
  let count = v.getUint16(eocd + 10, true);
  let cdOffset = v.getUint32(eocd + 16, true);
  if (v.getUint32(eocd - 20, true) === 0x07064b50) {
    const z64 = u64(eocd - 20 + 8);
    assert.equal(v.getUint32(z64, true), 0x06064b50);
    count = u64(z64 + 32);
    cdOffset = u64(z64 + 48);
  }
  const out: CentralInfo[] = [];
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    assert.equal(v.getUint32(at, true), 0x02014b50);
    const nameLength = v.getUint16(at + 28, true);
    const extraLength = v.getUint16(at + 30, true);
    const info: CentralInfo = {
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      flags: v.getUint16(at + 8, true),
      crc: v.getUint32(at + 16, true),
      compressed: v.getUint32(at + 20, true),
      uncompressed: v.getUint32(at + 24, true),
      offset: v.getUint32(at + 42, true),
    };
    // ZIP64 extra: the 0xffffffff fields, in the order uncompressed, compressed, offset.
    for (let e = at + 46 + nameLength; e < at + 46 + nameLength + extraLength;) {
      const tag = v.getUint16(e, true);
      const size = v.getUint16(e + 2, true);
      if (tag === 0x0001) {
        let f = e + 4;
        for (const key of ["uncompressed", "compressed", "offset"] as const) {
          if (info[key] === 0xffffffff) {
            info[key] = u64(f);
            f += 8;
          }
        }
      }
      e += 4 + size;
    }
    out.push(info);
    at += 46 + nameLength + extraLength + v.getUint16(at + 32, true);
  }
  return out;
}

/** Checks every local header and data descriptor against the central directory and the data. */
function assertDescriptorsMatch(bytes: Uint8Array): void {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const entry of readCentral(bytes)) {
    const at = entry.offset;
    assert.equal(v.getUint32(at, true), 0x04034b50, `local header of ${entry.name}`);
    const nameLength = v.getUint16(at + 26, true);
    const extraLength = v.getUint16(at + 28, true);
    const localZip64 = v.getUint32(at + 18, true) === 0xffffffff;
    const dataStart = at + 30 + nameLength + extraLength;
    const dataEnd = dataStart + entry.compressed;
    if (!(entry.flags & 0x0008)) continue;
    assert.equal(v.getUint32(dataEnd, true), 0x08074b50, `descriptor of ${entry.name}`);
    assert.equal(v.getUint32(dataEnd + 4, true), entry.crc, `descriptor CRC of ${entry.name}`);
    const size = (o: number) =>
      localZip64 ? v.getUint32(o, true) + v.getUint32(o + 4, true) * 2 ** 32 : v.getUint32(o, true);
    assert.equal(size(dataEnd + 8), entry.compressed, `descriptor size of ${entry.name}`);
    assert.equal(
      size(dataEnd + (localZip64 ? 16 : 12)),
      entry.uncompressed,
      `descriptor size of ${entry.name}`,
    );
    if (entry.compressed === entry.uncompressed) {
      assert.equal(zlib.crc32(bytes.subarray(dataStart, dataEnd)), entry.crc, `CRC of ${entry.name}'s data`);
    }
  }
}

const HAS_UNZIP = await hasCommand("unzip");
const HAS_PYTHON = await hasCommand("python3");

function assertSameTree(actual: Map<string, Expected>, expected: Map<string, Expected>): void {
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort());
  for (const [name, want] of expected) {
    const got = actual.get(name)!;
    assert.equal(got.dir, want.dir, name);
    if (!want.dir && !got.dir) {
      assert.deepEqual(got.data, want.data, `content of ${name}`);
      if (want.mode) assert.equal(got.mode, want.mode, `mode of ${name}`);
    }
  }
}

async function withTree(fn: (root: string, tmp: string, expected: Map<string, Expected>) => Promise<void>) {
  const tmp = await Deno.makeTempDir({ prefix: "archive_zip_" });
  try {
    const root = join(tmp, "src");
    await Deno.mkdir(root);
    await fn(root, tmp, await buildTree(root));
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

const PY_INSPECT = `
import json, sys, zipfile, struct
z = zipfile.ZipFile(sys.argv[1])
bad = z.testzip()
out = []
for i in z.infolist():
    ut = None
    extra = i.extra
    while len(extra) >= 4:
        tag, size = struct.unpack("<HH", extra[:4])
        if tag == 0x5455:
            ut = struct.unpack("<i", extra[5:9])[0]
        extra = extra[4 + size:]
    out.append({"name": i.filename, "flag": i.flag_bits, "mode": i.external_attr >> 16,
                "date": list(i.date_time), "ut": ut, "size": i.file_size})
print(json.dumps({"bad": bad, "entries": out}))
`;

interface PyEntry {
  name: string;
  flag: number;
  mode: number;
  date: number[];
  ut: number | null;
  size: number;
}

async function pythonInspect(path: string): Promise<{ bad: string | null; entries: PyEntry[] }> {
  const out = await run("python3", ["-c", PY_INSPECT, path]);
  return JSON.parse(new TextDecoder().decode(out));
}

Deno.test({
  name: "createArchive() zip round-trips the tree byte for byte through unzip",
  ignore: !HAS_UNZIP,
  fn: () =>
    withTree(async (root, tmp, expected) => {
      const zipPath = join(tmp, "out.zip");
      await Deno.writeFile(zipPath, createArchive(walkEntries(root), { format: "zip" }));
      await run("unzip", ["-tq", zipPath]);
      await run("unzip", ["-q", zipPath, "-d", join(tmp, "x")]);
      assertSameTree(await readTree(join(tmp, "x")), expected);
    }),
});

Deno.test({
  name: "createArchive() zip is read by Python's zipfile with UTF-8 names, unix modes and timestamps",
  ignore: !HAS_PYTHON,
  fn: () =>
    withTree(async (root, tmp, expected) => {
      const zipPath = join(tmp, "out.zip");
      await Deno.writeFile(zipPath, createArchive(walkEntries(root), { format: "zip" }));
      const { bad, entries } = await pythonInspect(zipPath);
      assert.equal(bad, null);
      const names = entries.map((e) => e.name.replace(/\/$/, "")).sort();
      assert.deepEqual(names, [...expected.keys()].sort());
      assert.ok(names.includes(BACKSLASH_STORED));
      for (const e of entries) assert.ok(e.flag & 0x800, `UTF-8 flag on ${e.name}`);
      const script = entries.find((e) => e.name === "a/run.sh")!;
      assert.equal(script.mode, 0o100755);
      const dirMode = (await Deno.stat(join(root, "empty_dir"))).mode! & 0o7777;
      assert.equal(entries.find((e) => e.name === "empty_dir/")!.mode, 0o040000 | dirMode);
      const mtime = (await Deno.stat(join(root, "a/run.sh"))).mtime!;
      assert.equal(script.ut, Math.floor(mtime.getTime() / 1000));
      const local = [
        mtime.getFullYear(),
        mtime.getMonth() + 1,
        mtime.getDate(),
        mtime.getHours(),
        mtime.getMinutes(),
      ];
      assert.deepEqual(script.date.slice(0, 5), local);
      assert.equal(script.date[5], mtime.getSeconds() & ~1);
    }),
});

Deno.test({
  name: "createArchive() zip with deflate round-trips through unzip and is smaller",
  ignore: !HAS_UNZIP,
  fn: () =>
    withTree(async (root, tmp, expected) => {
      const zipPath = join(tmp, "out.zip");
      await Deno.writeFile(
        zipPath,
        createArchive(walkEntries(root), { format: "zip", zipMethod: "deflate" }),
      );
      const stored = await collect(createArchive(walkEntries(root), { format: "zip" }));
      assert.ok((await Deno.stat(zipPath)).size < stored.length);
      await run("unzip", ["-tq", zipPath]);
      await run("unzip", ["-q", zipPath, "-d", join(tmp, "x")]);
      assertSameTree(await readTree(join(tmp, "x")), expected);
    }),
});

function hasSignature(bytes: Uint8Array, signature: number): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = bytes.length - 22; i >= 0; i--) if (view.getUint32(i, true) === signature) return true;
  return false;
}

Deno.test({
  name: "createArchive() zip with forced ZIP64 records passes unzip -t and Python's zipfile",
  ignore: !HAS_UNZIP || !HAS_PYTHON,
  fn: () =>
    withTree(async (root, tmp, expected) => {
      const zipPath = join(tmp, "out.zip");
      await Deno.writeFile(zipPath, createArchive(walkEntries(root), { format: "zip", forceZip64: true }));
      const bytes = await Deno.readFile(zipPath);
      assert.ok(hasSignature(bytes, 0x06064b50), "ZIP64 end of central directory record");
      assert.ok(hasSignature(bytes, 0x07064b50), "ZIP64 locator");
      await run("unzip", ["-tq", zipPath]);
      const { bad, entries } = await pythonInspect(zipPath);
      assert.equal(bad, null);
      assert.equal(entries.length, expected.size);
      await run("unzip", ["-q", zipPath, "-d", join(tmp, "x")]);
      assertSameTree(await readTree(join(tmp, "x")), expected);
    }),
});

Deno.test({
  name: "createArchive() zip with 70,000 entries switches to ZIP64 and every entry is readable",
  ignore: !HAS_UNZIP || !HAS_PYTHON,
  fn: async () => {
    const tmp = await Deno.makeTempDir({ prefix: "archive_zip64_" });
    try {
      const zipPath = join(tmp, "many.zip");
      await Deno.writeFile(zipPath, createArchive(tinyEntries(70_000), { format: "zip" }));
      const bytes = await Deno.readFile(zipPath);
      assert.ok(hasSignature(bytes, 0x06064b50));
      const eocd = new DataView(bytes.buffer, bytes.length - 22);
      assert.equal(eocd.getUint16(10, true), 0xffff, "classic record says: see ZIP64");
      const count = await run("python3", [
        "-c",
        "import sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; " +
        "assert z.read('f/69999.txt') == b'69999'; print(len(z.infolist()))",
        zipPath,
      ]);
      assert.equal(new TextDecoder().decode(count).trim(), "70000");
      await run("unzip", ["-tqq", zipPath]);
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

Deno.test("createArchive() zip data descriptors match the central directory, with and without ZIP64", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "archive_zip_" });
  try {
    await buildTree(tmp);
    for (const forceZip64 of [false, true]) {
      const bytes = await collect(createArchive(walkEntries(tmp), { format: "zip", forceZip64 }));
      assertDescriptorsMatch(bytes);
      assert.equal(readCentral(bytes).length, 14);
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("createArchive() zip skips entries whose names are refused", async () => {
  const data = new TextEncoder().encode("x");
  async function* entries() {
    const base = { isDir: false, size: 1, mtime: new Date(), mode: 0o644 };
    yield { ...base, name: "../escape.txt", open: () => Promise.resolve(new Response(data).body!) };
    yield { ...base, name: "/abs.txt", open: () => Promise.resolve(new Response(data).body!) };
    yield { ...base, name: "./ok//fine.txt", open: () => Promise.resolve(new Response(data).body!) };
  }
  const bytes = await collect(createArchive(entries(), { format: "zip" }));
  const text = new TextDecoder("latin1").decode(bytes);
  assert.ok(!text.includes("escape.txt"));
  assert.ok(!text.includes("abs.txt"));
  assert.ok(text.includes("ok/fine.txt"));
  const eocd = new DataView(bytes.buffer, bytes.length - 22);
  assert.equal(eocd.getUint16(10, true), 1);
});

/** A byte stream of `size` zero bytes, generated on demand. */
function zeros(size: number): ReadableStream<Uint8Array> {
  let left = size;
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      const request = controller.byobRequest!;
      const view = new Uint8Array(request.view!.buffer, request.view!.byteOffset, request.view!.byteLength);
      const n = Math.min(view.length, left);
      view.fill(0, 0, n);
      left -= n;
      request.respond(n);
      if (left === 0) controller.close();
    },
  });
}

Deno.test("createArchive() zip stores a real entry over 4 GiB and an offset over 4 GiB with ZIP64 fields", async () => {
  const big = 2 ** 32 + 1;
  const mtime = new Date("2024-01-02T03:04:06Z");
  async function* entries(): AsyncGenerator<ArchiveEntry> {
    yield {
      name: "big.bin",
      isDir: false,
      size: big,
      mtime,
      mode: 0o644,
      open: () => Promise.resolve(zeros(big)),
    };
    const small = new TextEncoder().encode("after");
    yield {
      name: "after.txt",
      isDir: false,
      size: 5,
      mtime,
      mode: 0o644,
      open: () => Promise.resolve(new Response(small).body!),
    };
  }
  // Keep only the length and the last 64 KiB: the central directory lives there.
  let total = 0;
  let tail = new Uint8Array(0);
  for await (const chunk of createArchive(entries(), { format: "zip" })) {
    total += chunk.length;
    const joined = new Uint8Array(Math.min(65536, tail.length + chunk.length));
    const keepOld = Math.max(0, joined.length - chunk.length);
    joined.set(tail.subarray(tail.length - keepOld), 0);
    joined.set(chunk.subarray(Math.max(0, chunk.length - joined.length)), keepOld);
    tail = joined;
  }
  const base = total - tail.length;
  const v = new DataView(tail.buffer);
  const u64 = (at: number) => v.getUint32(at, true) + v.getUint32(at + 4, true) * 2 ** 32;
  const eocd = tail.length - 22;
  assert.equal(v.getUint32(eocd - 20, true), 0x07064b50, "ZIP64 locator");
  const z64 = u64(eocd - 20 + 8) - base;
  assert.equal(v.getUint32(z64, true), 0x06064b50);
  assert.equal(u64(z64 + 32), 2, "two entries");
  const cd = u64(z64 + 48) - base;
  // First central header: sizes live in the ZIP64 extra (after the 9-byte timestamp field).
  assert.equal(v.getUint32(cd, true), 0x02014b50);
  assert.equal(v.getUint32(cd + 20, true), 0xffffffff);
  const nameLength = v.getUint16(cd + 28, true);
  const extra = cd + 46 + nameLength + 9;
  assert.equal(v.getUint16(extra, true), 0x0001);
  assert.equal(u64(extra + 4), big, "uncompressed size");
  assert.equal(u64(extra + 12), big, "compressed size");
  let crc = 0;
  const block = new Uint8Array(1 << 24);
  for (let left = big; left > 0; left -= block.length) {
    crc = zlib.crc32(block.subarray(0, Math.min(left, block.length)), crc);
  }
  assert.equal(v.getUint32(cd + 16, true), crc);
  // Second entry starts past 4 GiB: its offset is in its ZIP64 extra; its local header is in the tail.
  const second = cd + 46 + nameLength + v.getUint16(cd + 30, true);
  assert.equal(v.getUint32(second + 42, true), 0xffffffff);
  const secondExtra = second + 46 + v.getUint16(second + 28, true) + 9;
  const secondOffset = u64(secondExtra + 4);
  assert.equal(secondOffset, 30 + 7 + 29 + big + 24);
  const descriptor = secondOffset - 24 - base;
  assert.equal(v.getUint32(descriptor, true), 0x08074b50);
  assert.equal(u64(descriptor + 8), big, "8-byte sizes in the descriptor");
  assert.equal(v.getUint32(secondOffset - base, true), 0x04034b50);
});
