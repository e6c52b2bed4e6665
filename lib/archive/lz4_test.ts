import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { lz4FrameStream, xxh32Short } from "./lz4.ts";
import { collect } from "./_testing.ts";

Deno.test("xxh32Short() matches the reference values", () => {
  assert.equal(xxh32Short(new Uint8Array(0)), 0x02cc5d05);
  assert.equal(xxh32Short(new TextEncoder().encode("a")), 0x550d7456);
  assert.equal(xxh32Short(new TextEncoder().encode("abc")), 0x32d153ff);
});

Deno.test("lz4FrameStream() output decodes with lz4-napi's frame decoder, incompressible blocks included", async () => {
  const lz4 = await import("lz4-napi");
  const input = new Uint8Array(700_000);
  for (let i = 0; i < 300_000; i += 65536) {
    crypto.getRandomValues(input.subarray(i, Math.min(i + 65536, 300_000)));
  }
  input.fill(42, 300_000);
  const source = new Response(input).body!;
  const framed = await collect(source.pipeThrough(lz4FrameStream()));
  assert.deepEqual(new Uint8Array(lz4.decompressFrameSync(Buffer.from(framed))), input);
});
