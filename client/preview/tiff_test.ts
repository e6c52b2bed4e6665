import { strictEqual } from "node:assert/strict";
import sharp from "sharp";
import { decodeTiff, isTiffName } from "./tiff.ts";

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
