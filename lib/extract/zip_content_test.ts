import assert from "node:assert/strict";
import { rawZip, zipOf } from "./_testing.ts";
import { zipEntryContent } from "./zip_content.ts";
import {
  type RandomAccess,
  readZipDirectory,
  type ZipDirectoryEntry,
  ZipFormatError,
} from "./zip_directory.ts";
import { HttpError } from "../errors.ts";

function memory(bytes: Uint8Array): RandomAccess {
  return {
    size: bytes.length,
    readAt(into, position) {
      const part = bytes.subarray(position, position + into.length);
      into.set(part);
      return Promise.resolve(part.length);
    },
  };
}

async function entries(bytes: Uint8Array): Promise<ZipDirectoryEntry[]> {
  return await Array.fromAsync(readZipDirectory(memory(bytes)));
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return await new Response(stream).text();
}

Deno.test("zipEntryContent() reads stored and deflated entries (zip.js and system zip writers)", async () => {
  const big = "lorem ipsum ".repeat(20_000);
  const written = await zipOf([{ name: "a.txt", data: "hello" }, { name: "big.txt", data: big }, {
    name: "empty",
    data: "",
  }]);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/big.txt`, big);
    await Deno.writeTextFile(`${dir}/a.txt`, "hello");
    await Deno.writeTextFile(`${dir}/empty`, "");
    const out = await new Deno.Command("zip", {
      args: ["-q", "sys.zip", "a.txt", "big.txt", "empty"],
      cwd: dir,
    })
      .output();
    assert.ok(out.success);
    const system = await Deno.readFile(`${dir}/sys.zip`);
    const stored = rawZip([{ name: "a.txt", data: "hello" }, { name: "big.txt", data: big }, {
      name: "empty",
    }]);
    const streamed = await new Deno.Command("sh", {
      args: ["-c", "printf hello | zip -q - - > streamed.zip"],
      cwd: dir,
    }).output();
    assert.ok(streamed.success);
    for (const [label, bytes] of [["zip.js", written], ["zip", system], ["stored", stored.bytes]] as const) {
      const got = await entries(bytes);
      const src = memory(bytes);
      assert.deepEqual(
        await Promise.all(got.map(async (e) => [e.name, await text(zipEntryContent(src, e))])),
        [["a.txt", "hello"], ["big.txt", big], ["empty", ""]],
        label,
      );
    }
    // Streamed from stdin: ZIP64 sizes and a data descriptor after the data.
    const s = await Deno.readFile(`${dir}/streamed.zip`);
    const [e] = await entries(s);
    assert.equal(await text(zipEntryContent(memory(s), e)), "hello");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("zipEntryContent() refuses content that does not match its directory record with a 400", async () => {
  const z = rawZip([{ name: "a.txt", data: "hello world" }]);
  const [entry] = await entries(z.bytes);
  const flipped = z.bytes.slice();
  flipped[30 + "a.txt".length] ^= 0xff; // first content byte
  const noHeader = z.bytes.slice();
  noHeader[0] = 0;
  const deflated = await zipOf([{ name: "a.txt", data: "hello hello hello hello" }]);
  const [inflate] = await entries(deflated);
  const broken = deflated.slice();
  const lv = new DataView(broken.buffer);
  const at = 30 + lv.getUint16(26, true) + lv.getUint16(28, true);
  broken.fill(0xff, at, at + 4);
  const table: [string, Uint8Array, ZipDirectoryEntry, RegExp][] = [
    ["a wrong CRC-32", z.bytes, { ...entry, crc32: entry.crc32 ^ 1 }, /CRC-32/],
    ["changed content", flipped, entry, /CRC-32/],
    [
      "more content than declared",
      z.bytes,
      { ...entry, uncompressedSize: 5 },
      /larger than the archive says/,
    ],
    [
      "less content than declared",
      z.bytes,
      { ...entry, uncompressedSize: 50, compressedSize: 11 },
      /smaller/,
    ],
    ["no local header", noHeader, entry, /no local header/],
    ["data past the end", z.bytes, { ...entry, compressedSize: 1 << 20 }, /past the end of the archive/],
    ["a bad deflate stream", broken, inflate, /./],
  ];
  for (const [label, bytes, e, message] of table) {
    await assert.rejects(text(zipEntryContent(memory(bytes), e)), (err: unknown) => {
      // DecompressionStream fails with a TypeError; the extractor turns that into a 400 (damagedStream).
      if (label !== "a bad deflate stream") {
        assert.ok(err instanceof ZipFormatError, `${label}: ${err}`);
        assert.equal((err as HttpError).status, 400, label);
      }
      assert.match(String(err), message, label);
      return true;
    }, label);
  }
  for (
    const [label, e, message] of [
      ["encrypted", { ...entry, encrypted: true }, /encrypted/],
      ["an unknown method", { ...entry, method: 14 }, /compression method 14/],
    ] as const
  ) {
    assert.throws(() => zipEntryContent(memory(z.bytes), e), message, label);
  }
});
