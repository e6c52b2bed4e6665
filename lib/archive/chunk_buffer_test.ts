import assert from "node:assert/strict";
import { CHUNK_TARGET, ChunkBuffer } from "./stream.ts";
import { concatBytes as concat } from "./_testing.ts";

function piece(size: number, seed: number): Uint8Array {
  return new Uint8Array(size).map((_, i) => (i * 7 + seed) & 0xff);
}

const SIZES = [0, 1, 100, CHUNK_TARGET - 1, CHUNK_TARGET, CHUNK_TARGET + 1, 3 * CHUNK_TARGET + 17, 32 * 1024];

Deno.test("ChunkBuffer.write() fills every block to the brim and keeps no reference to its input", () => {
  const out = new ChunkBuffer();
  const chunks: Uint8Array[] = [];
  const expected: Uint8Array[] = [];
  const reused = new Uint8Array(CHUNK_TARGET + 1);
  for (const [i, size] of [...SIZES, ...SIZES.toReversed()].entries()) {
    const data = piece(size, i);
    expected.push(data.slice());
    // The same buffer every time, overwritten after each write: the output must not change with it.
    reused.set(data.subarray(0, Math.min(size, reused.length)));
    out.write(size <= reused.length ? reused.subarray(0, size) : data);
    reused.fill(0xee);
    data.fill(0xee);
    chunks.push(...out.take());
  }
  const last = out.flush();
  assert.ok(chunks.every((c) => c.length === CHUNK_TARGET), "every complete chunk is a full block");
  assert.deepEqual(concat([...chunks, ...last]), concat(expected));
});

Deno.test("ChunkBuffer: write() and push() interleaved keep the byte order", () => {
  const out = new ChunkBuffer();
  const expected: Uint8Array[] = [];
  const chunks: Uint8Array[] = [];
  for (const [i, size] of SIZES.entries()) {
    const header = piece(30 + i, 100 + i);
    out.push(header);
    expected.push(header);
    const data = piece(size, i);
    out.write(data);
    expected.push(data);
    chunks.push(...out.take());
  }
  chunks.push(...out.flush());
  assert.deepEqual(concat(chunks), concat(expected));
});
