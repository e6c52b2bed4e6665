/** Uploads under concurrency, across instances and after crashes: locks, leases, offsets and recovery. */
import assert from "node:assert/strict";
import { appendUploadChunk, createUpload, getUploadStatus } from "./mod.ts";
import { chunk, rejectsWith, uploadFixture } from "./_testing.ts";
import { keys } from "../storage/keys.ts";
import { acquireUploadLock } from "./lock.ts";
import { targetKeyOf } from "./store.ts";

Deno.test("two concurrent chunks for one upload: one wins, the other gets 423 or 409", async () => {
  const f = await uploadFixture();
  try {
    const ctx = f.ctx();
    await createUpload(ctx, "/p.bin", { length: "8", override: false });
    // A body that stalls until released keeps the first PATCH inside its lock; it is read only once the
    // PATCH holds the lock (highWaterMark 0: nothing is pulled before a read).
    let release!: () => void;
    let reading!: () => void;
    const gate = new Promise<void>((r) => release = r);
    const started = new Promise<void>((r) => reading = r);
    let sent = false;
    const slow = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent) return;
        sent = true;
        reading();
        controller.enqueue(new TextEncoder().encode("abcd"));
        await gate;
        controller.close();
      },
    }, { highWaterMark: 0 });
    const first = appendUploadChunk(ctx, "/p.bin", { ...chunk(0), body: slow });
    await started;
    await rejectsWith(appendUploadChunk(ctx, "/p.bin", chunk(0, "wxyz")), 423, "upload_locked");
    release();
    assert.equal((await first).offset, 4);
    await rejectsWith(appendUploadChunk(ctx, "/p.bin", chunk(0, "wxyz")), 409);
    await appendUploadChunk(ctx, "/p.bin", chunk(4, "efgh"));
    assert.equal(await Deno.readTextFile(`${f.root}/p.bin`), "abcdefgh");
  } finally {
    await f.close();
  }
});

Deno.test("an upload continues on a new instance that shares the KV file and the directories", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fbupload-" });
  const kvPath = `${dir}/kv.sqlite`;
  try {
    const a = await uploadFixture({ dir, kvPath });
    await createUpload(a.ctx(), "/big.bin", { length: "6", override: false });
    await appendUploadChunk(a.ctx(), "/big.bin", chunk(0, "abc"));
    await a.close();
    const b = await uploadFixture({ dir, kvPath });
    try {
      assert.equal((await getUploadStatus(b.ctx(), "/big.bin")).offset, 3);
      await appendUploadChunk(b.ctx(), "/big.bin", chunk(3, "def"));
      assert.equal(await Deno.readTextFile(`${dir}/root/big.bin`), "abcdef");
    } finally {
      await b.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a chunk cut short keeps its bytes and a crashed lock expires", async () => {
  const f = await uploadFixture();
  try {
    const ctx = f.ctx();
    await createUpload(ctx, "/cut.bin", { length: "6", override: false });
    let n = 0;
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (n++ === 0) controller.enqueue(new TextEncoder().encode("ab"));
        else controller.error(new Error("reset"));
      },
    });
    assert.equal((await appendUploadChunk(ctx, "/cut.bin", { ...chunk(0), body: broken })).offset, 2);
    // A server that died inside a PATCH leaves its lease behind; it blocks only until it expires.
    const key = await targetKeyOf(`${f.root}/cut.bin`);
    assert.ok(await acquireUploadLock(f.kv, key, { now: f.clock.now }));
    await rejectsWith(appendUploadChunk(ctx, "/cut.bin", chunk(2, "cdef")), 423);
    f.clock.now += 60_000;
    await appendUploadChunk(ctx, "/cut.bin", chunk(2, "cdef"));
    assert.equal(await Deno.readTextFile(`${f.root}/cut.bin`), "abcdef");
  } finally {
    await f.close();
  }
});

Deno.test("the offset is the staging file size (a crash before writeback shortens it); a lost staging file ends the upload", async () => {
  const f = await uploadFixture();
  try {
    const ctx = f.ctx();
    await createUpload(ctx, "/lost.bin", { length: "8", override: false });
    await appendUploadChunk(ctx, "/lost.bin", chunk(0, "abcdef"));
    const [staging] = [...Deno.readDirSync(f.uploadDir)].map((e) => `${f.uploadDir}/${e.name}`);
    await Deno.truncate(staging, 4);
    assert.equal((await getUploadStatus(ctx, "/lost.bin")).offset, 4);
    await rejectsWith(appendUploadChunk(ctx, "/lost.bin", chunk(6, "gh")), 409);
    await appendUploadChunk(ctx, "/lost.bin", chunk(4, "efgh"));
    assert.equal(await Deno.readTextFile(`${f.root}/lost.bin`), "abcdefgh");

    await createUpload(ctx, "/gone.bin", { length: "8", override: false });
    for (const e of Deno.readDirSync(f.uploadDir)) await Deno.remove(`${f.uploadDir}/${e.name}`);
    await rejectsWith(getUploadStatus(ctx, "/gone.bin"), 404);
    await rejectsWith(
      createUpload(ctx, "/gone.bin", { length: "0", override: false }).then(() =>
        getUploadStatus(ctx, "/gone.bin")
      ),
      404,
    );
    assert.equal((await Deno.stat(`${f.root}/gone.bin`)).size, 0, "a new upload to the same target works");
  } finally {
    await f.close();
  }
});

Deno.test("chunks of one upload reuse the parked lease; another instance gets 423 until it runs out", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fbupload-" });
  const kvPath = `${dir}/kv.sqlite`;
  const a = await uploadFixture({ dir, kvPath });
  const b = await uploadFixture({ dir, kvPath });
  try {
    await createUpload(a.ctx(), "/two.bin", { length: "6", override: false });
    await appendUploadChunk(a.ctx(), "/two.bin", chunk(0, "ab"));
    const key = await targetKeyOf(`${dir}/root/two.bin`);
    const stamp = (await a.kv.get(keys.uploadLock(key))).versionstamp;
    assert.ok(stamp, "the lease is parked in KV after the chunk");
    await appendUploadChunk(a.ctx(), "/two.bin", chunk(2, "cd"));
    assert.equal(
      (await a.kv.get(keys.uploadLock(key))).versionstamp,
      stamp,
      "the second chunk wrote nothing to KV",
    );
    assert.equal((await getUploadStatus(b.ctx(), "/two.bin")).offset, 4, "HEAD works anywhere");
    await rejectsWith(appendUploadChunk(b.ctx(), "/two.bin", chunk(4, "ef")), 423);
    b.clock.now = a.clock.now + 10_001;
    await appendUploadChunk(b.ctx(), "/two.bin", chunk(4, "ef"));
    assert.equal(await Deno.readTextFile(`${dir}/root/two.bin`), "abcdef");
  } finally {
    await a.close();
    await b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("HEAD completes an upload whose bytes all arrived but that was never moved into place", async () => {
  const f = await uploadFixture();
  try {
    const ctx = f.ctx();
    await createUpload(ctx, "/late.bin", { length: "4", override: false });
    const [staging] = [...Deno.readDirSync(f.uploadDir)].map((e) => `${f.uploadDir}/${e.name}`);
    await Deno.writeTextFile(staging, "done");
    const status = await getUploadStatus(ctx, "/late.bin");
    assert.deepEqual(status, { vpath: "/late.bin", offset: 4, length: 4, complete: true });
    assert.equal(await Deno.readTextFile(`${f.root}/late.bin`), "done");
    await rejectsWith(getUploadStatus(ctx, "/late.bin"), 404);
  } finally {
    await f.close();
  }
});
