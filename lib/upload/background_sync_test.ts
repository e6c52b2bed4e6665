import assert from "node:assert/strict";
import { StagingSync } from "./background_sync.ts";
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
    const sync = new StagingSync();
    const res = await writeChunk(path, bodyOf(20 * 1024 * 1024), {
      offset: 0,
      limit: 20 * 1024 * 1024,
      backgroundSync: sync,
    });
    assert.equal(res.written, 20 * 1024 * 1024);
    await sync.settle(path);
    assert.equal(sync.count, 0);
    assert.equal((await Deno.stat(path)).size, 20 * 1024 * 1024);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("background sync: a missing file is no error, and nothing stays running", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const sync = new StagingSync();
    sync.start(`${dir}/gone.part`);
    await sync.settle(`${dir}/gone.part`);
    assert.equal(sync.count, 0);
    await sync.settle(`${dir}/never.part`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("background sync: requests while one runs share it and settle together", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/b.part`;
    await Deno.writeFile(path, new Uint8Array(1024 * 1024));
    const sync = new StagingSync();
    for (let i = 0; i < 5; i++) sync.start(path);
    assert.equal(sync.count, 1);
    // The file goes away while syncs are queued: still no rejection.
    await Deno.remove(path);
    await sync.settle(path);
    assert.equal(sync.count, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("background sync: writeChunk without it starts nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/c.part`;
    await Deno.writeFile(path, new Uint8Array());
    const sync = new StagingSync();
    sync.start(`${dir}/other.part`);
    await writeChunk(path, bodyOf(9 * 1024 * 1024), { offset: 0, limit: 9 * 1024 * 1024 });
    assert.equal(sync.count <= 1, true, "only the sync started by hand");
    await sync.settle(`${dir}/other.part`);
    assert.equal(sync.count, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("background sync: two apps' trackers share no running syncs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/d.part`;
    await Deno.writeFile(path, new Uint8Array(1024 * 1024));
    const one = new StagingSync();
    const two = new StagingSync();
    one.start(path);
    assert.equal(one.count, 1);
    assert.equal(two.count, 0, "a sync in one app is not seen by the other");
    // Settling in the other app does not wait for (nor end) this app's sync.
    await two.settle(path);
    two.start(path);
    assert.equal(two.count, 1);
    await Promise.all([one.settle(path), two.settle(path)]);
    assert.equal(one.count + two.count, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
