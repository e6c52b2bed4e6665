import { strictEqual } from "node:assert/strict";
import sharp from "sharp";
import { decodeTiff, hasTiffHeader, isTiffName } from "./tiff.ts";

Deno.test("isTiffName() recognises the TIFF family case-insensitively", () => {
  strictEqual(isTiffName("a.TIF"), true);
  strictEqual(isTiffName("raw.cr2"), true);
  strictEqual(isTiffName("raw.nef"), true);
  strictEqual(isTiffName("x.dng"), true);
  strictEqual(isTiffName("x.png"), false);
  strictEqual(isTiffName("tiff"), false);
});

Deno.test("decodeTiff() decodes a TIFF made by sharp to its RGBA pixels", async () => {
  const bytes = await sharp({
    create: { width: 6, height: 4, channels: 3, background: { r: 200, g: 10, b: 30 } },
  })
    .tiff({ compression: "lzw" }).toBuffer();
  const image = await decodeTiff(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  strictEqual(image.width, 6);
  strictEqual(image.height, 4);
  strictEqual(image.rgba.length, 6 * 4 * 4);
  strictEqual([...image.rgba.slice(0, 4)].join(","), "200,10,30,255");
});

Deno.test("decodeTiff() rejects bytes that are not a TIFF image", async () => {
  let failed = false;
  try {
    await decodeTiff(new Uint8Array([0x49, 0x49, 42, 0, 8, 0, 0, 0, 0, 0, 0, 0]).buffer);
  } catch {
    failed = true;
  }
  strictEqual(failed, true);
});

Deno.test("hasTiffHeader() recognises both byte orders and nothing else", () => {
  strictEqual(hasTiffHeader(new Uint8Array([0x49, 0x49, 0x2a, 0]).buffer), true);
  strictEqual(hasTiffHeader(new Uint8Array([0x4d, 0x4d, 0, 0x2a]).buffer), true);
  strictEqual(hasTiffHeader(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]).buffer), false);
  strictEqual(hasTiffHeader(new Uint8Array([0x49]).buffer), false);
});
