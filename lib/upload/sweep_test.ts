import assert from "node:assert/strict";
import { cleanupUploads } from "./sweep.ts";
import { appendUploadChunk, createUpload, getUploadStatus } from "./mod.ts";
import { chunk, uploadFixture } from "./_testing.ts";
import { acquireUploadLock } from "./lock.ts";
import { targetKeyOf } from "./store.ts";

Deno.test("cleanupUploads() removes only uploads untouched for longer than the expiry", async () => {
  const f = await uploadFixture({ uploadExpiry: 60 });
  try {
    const ctx = f.ctx();
    await Deno.writeTextFile(`${f.root}/old.bin`, "existing");
    await createUpload(ctx, "/old.bin", { length: "4", override: true });
    await appendUploadChunk(ctx, "/old.bin", chunk(0, "ab"));
    f.clock.now += 30_000;
    await createUpload(ctx, "/fresh.bin", { length: "4", override: false });
    assert.deepEqual(await cleanupUploads(f.deps), { uploads: 0, orphans: 0 });

    f.clock.now += 31_000;
    assert.deepEqual(await cleanupUploads(f.deps), { uploads: 1, orphans: 0 });
    await assert.rejects(getUploadStatus(ctx, "/old.bin"), { status: 404 });
    assert.equal(await Deno.readTextFile(`${f.root}/old.bin`), "existing", "the target is never touched");
    assert.equal((await getUploadStatus(ctx, "/fresh.bin")).offset, 0);
    assert.equal(
      [...Deno.readDirSync(f.uploadDir)].length,
      1,
      "only the fresh upload's staging file is left",
    );
  } finally {
    await f.close();
  }
});

Deno.test("cleanupUploads() skips an upload whose chunk is still running", async () => {
  const f = await uploadFixture({ uploadExpiry: 60 });
  try {
    await createUpload(f.ctx(), "/busy.bin", { length: "4", override: false });
    f.clock.now += 61_000;
    const key = await targetKeyOf(`${f.root}/busy.bin`);
    assert.ok(await acquireUploadLock(f.kv, key, { now: f.clock.now }));
    assert.deepEqual(await cleanupUploads(f.deps), { uploads: 0, orphans: 0 });
    assert.equal((await getUploadStatus(f.ctx(), "/busy.bin")).offset, 0);
  } finally {
    await f.close();
  }
});

Deno.test("cleanupUploads() removes old staging files that belong to no upload", async () => {
  const f = await uploadFixture({ uploadExpiry: 60 });
  try {
    await Deno.mkdir(f.uploadDir, { recursive: true });
    await Deno.writeTextFile(`${f.uploadDir}/orphan.part`, "x");
    await Deno.writeTextFile(`${f.uploadDir}/unrelated.txt`, "x");
    f.clock.now = Date.now();
    assert.deepEqual(
      await cleanupUploads(f.deps),
      { uploads: 0, orphans: 0 },
      "young orphans may still get a record",
    );
    f.clock.now = Date.now() + 61_000;
    assert.deepEqual(await cleanupUploads(f.deps), { uploads: 0, orphans: 1 });
    assert.deepEqual([...Deno.readDirSync(f.uploadDir)].map((e) => e.name), ["unrelated.txt"]);
  } finally {
    await f.close();
  }
});

Deno.test("cleanupUploads() copes with a staging directory that does not exist yet", async () => {
  const f = await uploadFixture();
  try {
    assert.deepEqual(await cleanupUploads(f.deps), { uploads: 0, orphans: 0 });
  } finally {
    await f.close();
  }
});
