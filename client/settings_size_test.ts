import assert from "node:assert/strict";
import { CHUNK_SIZE_FALLBACK, formatChunkSize, parseChunkSize } from "./settings_size.ts";

Deno.test("parseChunkSize() reads numbers with optional decimals and binary units, case-insensitive", () => {
  assert.equal(parseChunkSize("5MB"), 5 * 1024 * 1024);
  assert.equal(parseChunkSize("10mb"), 10485760);
  assert.equal(parseChunkSize("1.5 K"), 1536);
  assert.equal(parseChunkSize("512"), 512);
  assert.equal(parseChunkSize("512b"), 512);
  assert.equal(parseChunkSize("2G"), 2 * 1024 ** 3);
  assert.equal(parseChunkSize(" 1tb "), 1024 ** 4);
});

Deno.test("parseChunkSize() falls back to 1 MiB on anything else", () => {
  for (const bad of ["", "abc", "5 XB", "-1MB", "1,5MB", "0", "MB"]) {
    assert.equal(parseChunkSize(bad), CHUNK_SIZE_FALLBACK, bad);
  }
});

Deno.test("formatChunkSize() uses the largest unit that fits", () => {
  assert.equal(formatChunkSize(10485760), "10MB");
  assert.equal(formatChunkSize(1536), "1.5KB");
  assert.equal(formatChunkSize(1000), "1000B");
  assert.equal(formatChunkSize(3 * 1024 ** 3), "3GB");
  assert.equal(formatChunkSize(parseChunkSize("2.25MB")), "2.25MB");
});
