import assert from "node:assert/strict";
import zlib from "node:zlib";
import { crc32, crc32c, crc32Js } from "./crc.ts";

const CHECK = new TextEncoder().encode("123456789");

Deno.test("crc32() and crc32Js() give the standard check value", () => {
  assert.equal(crc32(0, CHECK), 0xcbf43926);
  assert.equal(crc32Js(0, CHECK), 0xcbf43926);
  assert.equal(crc32Js(0, new Uint8Array(0)), 0);
});

Deno.test("crc32c() gives the Castagnoli check value", () => {
  assert.equal(crc32c(0, CHECK), 0xe3069283);
});

Deno.test("crc32Js() agrees with zlib on random data fed in uneven pieces", () => {
  const data = new Uint8Array(100_003);
  for (let i = 0; i < data.length; i += 65536) crypto.getRandomValues(data.subarray(i, i + 65536));
  let running = 0;
  for (let at = 0; at < data.length;) {
    const n = 1 + ((at * 7919) % 4093);
    running = crc32Js(running, data.subarray(at, at + n));
    at += n;
  }
  assert.equal(running, zlib.crc32(data));
  assert.equal(crc32(0, data), zlib.crc32(data));
});
