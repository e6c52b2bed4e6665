import assert from "node:assert/strict";
import { backgroundSyncCount, settleBackgroundSync, syncInBackground } from "./background_sync.ts";
import { writeChunk } from "./chunk_writer.ts";

function bodyOf(bytes: number): ReadableStream<Uint8Array> {
  let left = bytes;
  return new ReadableStream({
    pull(controller) {
      if (left === 0) return controller.close();
      const n = Math.min(left, 256 * 1024);
      left -= n;
      controller.enqueue(new Uint8Array(n).fill(7));
    },
  });
}

Deno.test("background sync: a chunk leaves a sync that settles, and the data is intact", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/a.part`;
    await Deno.writeFile(path, new Uint8Array());
    const res = await writeChunk(path, bodyOf(20 * 1024 * 1024), { offset: 0, limit: 20 * 1024 * 1024 });
    assert.equal(res.written, 20 * 1024 * 1024);
    await settleBackgroundSync(path);
    assert.equal(backgroundSyncCount(), 0);
    assert.equal((await Deno.stat(path)).size, 20 * 1024 * 1024);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("background sync: a missing file is no error, and nothing stays running", async () => {
  const dir = await Deno.makeTempDir();
  try {
    syncInBackground(`${dir}/gone.part`);
    await settleBackgroundSync(`${dir}/gone.part`);
    assert.equal(backgroundSyncCount(), 0);
    await settleBackgroundSync(`${dir}/never.part`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("background sync: requests while one runs share it and settle together", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/b.part`;
    await Deno.writeFile(path, new Uint8Array(1024 * 1024));
    for (let i = 0; i < 5; i++) syncInBackground(path);
    assert.equal(backgroundSyncCount(), 1);
    // The file goes away while syncs are queued: still no rejection.
    await Deno.remove(path);
    await settleBackgroundSync(path);
    assert.equal(backgroundSyncCount(), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("background sync: writeChunk without it starts nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/c.part`;
    await Deno.writeFile(path, new Uint8Array());
    await writeChunk(path, bodyOf(9 * 1024 * 1024), {
      offset: 0,
      limit: 9 * 1024 * 1024,
      backgroundSync: false,
    });
    assert.equal(backgroundSyncCount(), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
