import assert from "node:assert/strict";
import { join } from "node:path";
import { createArchive } from "./mod.ts";
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
      const local = [mtime.getFullYear(), mtime.getMonth() + 1, mtime.getDate(), mtime.getHours(), mtime.getMinutes()];
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
      await Deno.writeFile(zipPath, createArchive(walkEntries(root), { format: "zip", zipMethod: "deflate" }));
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

Deno.test("createArchive() zip skips entries whose names are refused and files that cannot be opened", async () => {
  const data = new TextEncoder().encode("x");
  async function* entries() {
    const base = { isDir: false, size: 1, mtime: new Date(), mode: 0o644 };
    yield { ...base, name: "../escape.txt", open: () => Promise.resolve(new Response(data).body!) };
    yield { ...base, name: "/abs.txt", open: () => Promise.resolve(new Response(data).body!) };
    yield { ...base, name: "gone.txt", open: () => Promise.reject(new Deno.errors.NotFound("gone")) };
    yield { ...base, name: "./ok//fine.txt", open: () => Promise.resolve(new Response(data).body!) };
  }
  const bytes = await collect(createArchive(entries(), { format: "zip" }));
  const text = new TextDecoder("latin1").decode(bytes);
  assert.ok(!text.includes("escape.txt"));
  assert.ok(!text.includes("abs.txt"));
  assert.ok(!text.includes("gone.txt"));
  assert.ok(text.includes("ok/fine.txt"));
  const eocd = new DataView(bytes.buffer, bytes.length - 22);
  assert.equal(eocd.getUint16(10, true), 1);
});
