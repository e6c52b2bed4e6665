import assert from "node:assert/strict";
import { join } from "node:path";
import { createArchive } from "./mod.ts";
import { collect, walkEntries } from "./_testing.ts";
import { withGcStub } from "../_young_gc_testing.ts";

/** A consumer that reads one chunk at a time and waits between reads (a slow client). */
async function collectSlowly(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const reader = stream.getReader();
  for (let i = 0;; i++) {
    const { done, value } = await reader.read();
    if (done) break;
    // Copied now: a chunk must stay intact after the writer moved on, whatever it does with its buffers.
    parts.push(new Uint8Array(value));
    if (i % 4 === 0) await new Promise((r) => setTimeout(r, 1));
  }
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

Deno.test("a zip of many files read slowly is byte-identical to one read at once, with collections on", async () => {
  const root = await Deno.makeTempDir();
  try {
    // 600 files of 1 to 24 KiB (6+ MiB): many output blocks, entries spanning blocks, several collections.
    let seed = 1;
    for (let d = 0; d < 6; d++) {
      await Deno.mkdir(join(root, `d${d}`));
      for (let f = 0; f < 100; f++) {
        const data = new Uint8Array(1024 + (f * 237 + d * 4099) % (23 * 1024));
        for (let i = 0; i < data.length; i++) data[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
        await Deno.writeFile(join(root, `d${d}`, `f${f}.bin`), data);
      }
    }
    const mtime = new Date("2024-05-06T07:08:10Z");
    const fixed = async function* () {
      // The same dates whatever the disk says, so two archives can be compared byte for byte.
      for await (const e of walkEntries(root)) yield { ...e, mtime };
    };
    await withGcStub(async (calls) => {
      const fast = await collect(createArchive(fixed(), { format: "zip" }));
      assert.ok(calls.length >= 3, `collections while streaming: ${calls.length}`);
      const slow = await collectSlowly(createArchive(fixed(), { format: "zip" }));
      assert.equal(slow.length, fast.length);
      assert.ok(slow.length > 6 * 1024 * 1024);
      assert.deepEqual(slow, fast);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
