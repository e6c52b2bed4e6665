import assert from "node:assert/strict";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import zlib from "node:zlib";
import { type ArchiveFormat, createArchive } from "./mod.ts";
import { crc32c } from "./crc.ts";
import { maskCrc } from "./snappy.ts";
import { buildTree, collect, type Expected, hasCommand, readTree, run, walkEntries } from "./_testing.ts";

const HAS_TAR = await hasCommand("tar");
const HAS_PYTHON = await hasCommand("python3");

/** A decoder for the snappy framing format, written from the spec, using npm snappy for blocks. */
async function decodeSnappyFramed(data: Uint8Array): Promise<Uint8Array> {
  const snappy = await import("snappy");
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  assert.deepEqual([...data.subarray(0, 10)], [0xff, 6, 0, 0, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]);
  const parts: Uint8Array[] = [];
  let at = 10;
  while (at < data.length) {
    const type = data[at];
    const length = view.getUint32(at, true) >>> 8;
    const body = data.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    if (type !== 0 && type !== 1) throw new Error(`unexpected chunk type ${type}`);
    const crc = new DataView(body.buffer, body.byteOffset).getUint32(0, true);
    const payload = type === 0 ? snappy.uncompressSync(body.subarray(4)) as Uint8Array : body.subarray(4);
    assert.ok(payload.length <= 65536, "chunk holds at most 64 KiB");
    assert.equal(crc, maskCrc(crc32c(0, payload)), "masked CRC-32C");
    parts.push(new Uint8Array(payload));
  }
  return new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
}

/** The library's own framed decoder (independent of our framing code); it checks the CRCs too. */
async function decodeSnappyWithLibrary(data: Uint8Array): Promise<Uint8Array> {
  const snappy = await import("snappy");
  const input = new Response(data as Uint8Array<ArrayBuffer>).body! as ReadableStream<Uint8Array>;
  return collect(snappy.uncompressStream(input) as ReadableStream<Uint8Array>);
}

type Decoder = (file: string) => Promise<Uint8Array>;

/** The system tool when installed (the reference implementation), else an npm/node decoder. */
async function toolOr(command: string, args: string[], fallback: Decoder): Promise<Decoder> {
  return (await hasCommand(command)) ? (f) => run(command, [...args, f]) : fallback;
}

const noDecoder: Decoder = () => Promise.reject(new Error("no decoder on this machine"));

/** How each format is turned back into a plain tar, by a decoder that is not ours. */
const DECODERS: [ArchiveFormat, Decoder][] = [
  ["tar", (f) => Deno.readFile(f)],
  ["tar.gz", await toolOr("gzip", ["-dc"], noDecoder)],
  ["tar.bz2", await toolOr("bzip2", ["-dc"], noDecoder)],
  ["tar.xz", await toolOr("xz", ["-dc"], noDecoder)],
  [
    "tar.lz4",
    await toolOr("lz4", ["-dc"], async (f) => {
      const lz4 = await import("lz4-napi");
      return new Uint8Array(lz4.decompressFrameSync(Buffer.from(await Deno.readFile(f))));
    }),
  ],
  [
    "tar.zst",
    await toolOr(
      "zstd",
      ["-dc"],
      async (f) => new Uint8Array(zlib.zstdDecompressSync(await Deno.readFile(f))),
    ),
  ],
  ["tar.br", async (f) => new Uint8Array(zlib.brotliDecompressSync(await Deno.readFile(f)))],
  ["tar.sz", async (f) => {
    const data = await Deno.readFile(f);
    const ours = await decodeSnappyFramed(data);
    assert.deepEqual(await decodeSnappyWithLibrary(data), ours, "npm snappy's framed decoder agrees");
    return ours;
  }],
];

function assertSameTree(actual: Map<string, Expected>, expected: Map<string, Expected>, label: string): void {
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), label);
  for (const [name, want] of expected) {
    const got = actual.get(name)!;
    assert.equal(got.dir, want.dir, `${label}: ${name}`);
    if (!want.dir && !got.dir) {
      assert.deepEqual(got.data, want.data, `${label}: content of ${name}`);
      if (want.mode) assert.equal(got.mode, want.mode, `${label}: mode of ${name}`);
    }
  }
}

const PY_TARFILE = `
import json, sys, tarfile
out = {}
with tarfile.open(sys.argv[1]) as t:
    for m in t:
        out[m.name] = {"dir": m.isdir(), "size": m.size, "mode": m.mode, "mtime": m.mtime,
                       "data": list(t.extractfile(m).read()) if m.isfile() else None}
print(json.dumps(out))
`;

for (const [format, decode] of DECODERS) {
  const producible = format === "tar.bz2"
    ? await hasCommand("bzip2")
    : format === "tar.xz"
    ? await hasCommand("xz")
    : true;
  Deno.test({
    name: `createArchive() ${format} round-trips the tree byte for byte through GNU tar`,
    ignore: !HAS_TAR || !producible,
    fn: async () => {
      const tmp = await Deno.makeTempDir({ prefix: "archive_tar_" });
      try {
        const root = join(tmp, "src");
        await Deno.mkdir(root);
        const expected = await buildTree(root);
        const archive = join(tmp, `out.${format}`);
        await Deno.writeFile(archive, createArchive(walkEntries(root), { format }));
        const tarPath = join(tmp, "plain.tar");
        await Deno.writeFile(tarPath, await decode(archive));
        await Deno.mkdir(join(tmp, "x"));
        await run("tar", ["-xf", tarPath, "-C", join(tmp, "x")]);
        assertSameTree(await readTree(join(tmp, "x")), expected, format);
        const size = (await Deno.stat(tarPath)).size;
        assert.equal(size % 10240, 0, "padded to whole 20-block records");
      } finally {
        await Deno.remove(tmp, { recursive: true });
      }
    },
  });
}

Deno.test({
  name: "createArchive() tar is read by Python's tarfile with PAX names, modes and mtimes",
  ignore: !HAS_PYTHON,
  fn: async () => {
    const tmp = await Deno.makeTempDir({ prefix: "archive_tar_" });
    try {
      const root = join(tmp, "src");
      await Deno.mkdir(root);
      const expected = await buildTree(root);
      const archive = join(tmp, "out.tar.gz");
      await Deno.writeFile(archive, createArchive(walkEntries(root), { format: "tar.gz" }));
      const members: Record<string, { dir: boolean; mode: number; mtime: number; data: number[] | null }> =
        JSON
          .parse(new TextDecoder().decode(await run("python3", ["-c", PY_TARFILE, archive])));
      assert.deepEqual(Object.keys(members).sort(), [...expected.keys()].sort());
      for (const [name, want] of expected) {
        const got = members[name];
        assert.equal(got.dir, want.dir, name);
        if (!want.dir) assert.deepEqual(new Uint8Array(got.data!), want.data, name);
      }
      const stat = await Deno.stat(join(root, "a/run.sh"));
      assert.equal(members["a/run.sh"].mode, 0o755);
      assert.equal(members["a/run.sh"].mtime, Math.floor(stat.mtime!.getTime() / 1000));
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

Deno.test("createArchive() tar puts non-ASCII and long names in PAX path records", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "archive_tar_" });
  try {
    await buildTree(tmp);
    const tar = new TextDecoder().decode(await collect(createArchive(walkEntries(tmp), { format: "tar" })));
    assert.ok(tar.includes(" path=ünïcödé 文件 😀.txt\n"));
    assert.ok(tar.includes(` path=${"l".repeat(120)}.txt\n`));
    assert.ok(tar.includes(` path=${"d".repeat(60)}/${"e".repeat(60)}/\n`), "directories keep their slash");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("createArchive() tar writes exactly the stat'ed size: a grown file is cut, a shrunk one ends the archive", async () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  const base = { isDir: false, mtime: new Date(0), mode: 0o644 };
  const grew = {
    ...base,
    name: "grew.txt",
    size: 3,
    open: () => Promise.resolve(new Response(bytes("abcdef")).body!),
  };
  const shrank = {
    ...base,
    name: "shrank.txt",
    size: 5,
    open: () => Promise.resolve(new Response(bytes("xy")).body!),
  };
  const tar = await collect(createArchive(
    (async function* () {
      yield grew;
    })(),
    { format: "tar" },
  ));
  assert.equal(new TextDecoder().decode(tar.subarray(512, 512 + 3)), "abc");
  assert.equal(tar[512 + 3], 0);
  assert.equal(tar.length, 10240);
  // Zero-padding would hand out a file that never existed; the stream errors instead of ending.
  await assert.rejects(
    collect(createArchive(
      (async function* () {
        yield grew;
        yield shrank;
      })(),
      { format: "tar" },
    )),
    /Cannot archive "shrank.txt": it shrank from 5 to 2 bytes/,
  );
});

Deno.test("createArchive() tar uses a PAX size record and a base-256 size field for 8 GiB and more", async () => {
  const size = 8 * 1024 ** 3 + 5;
  const stream = createArchive(
    (async function* () {
      yield {
        name: "huge.bin",
        isDir: false,
        size,
        mtime: new Date(0),
        mode: 0o644,
        // Zeros on demand: only the first chunk is read.
        open: () => Promise.resolve(new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(65536)) })),
      };
    })(),
    { format: "tar" },
  );
  const reader = stream.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  const head = new TextDecoder("latin1").decode(value!.subarray(0, 1536));
  assert.ok(head.includes(`size=${size}\n`), "PAX size record");
  const header = value!.subarray(1024, 1536);
  assert.equal(header[124], 0x80, "base-256 marker");
  let decoded = 0;
  for (let i = 125; i < 136; i++) decoded = decoded * 256 + header[i];
  assert.equal(decoded, size);
});
