import assert from "node:assert/strict";
import { acquireUploadLock } from "./lock.ts";
import { deleteUpload, findUpload, listUploads, saveUpload, targetKeyOf } from "./store.ts";
import type { UploadRecord } from "./store.ts";
import { withKv } from "./_testing.ts";

function record(overrides: Partial<UploadRecord> = {}): UploadRecord {
  return {
    id: "u1",
    userId: 1,
    vpath: "/a.bin",
    target: "/srv/a.bin",
    length: 10,
    override: false,
    createdAt: 1000,
    ...overrides,
  };
}

Deno.test("targetKeyOf() hashes paths of any length into a short stable key", async () => {
  const long = "/x".repeat(3000);
  const a = await targetKeyOf(long);
  assert.equal(a.length, 64);
  assert.equal(a, await targetKeyOf(long));
  assert.notEqual(a, await targetKeyOf(long + "y"));
});

Deno.test("saveUpload() creates only once and then compares versionstamps", async () => {
  await withKv(async (kv) => {
    const key = await targetKeyOf("/srv/a.bin");
    const v1 = await saveUpload(kv, key, record(), { expect: null });
    assert.ok(v1);
    assert.equal(await saveUpload(kv, key, record({ id: "u2" }), { expect: null }), null);
    const v2 = await saveUpload(kv, key, record({ length: 5 }), { expect: v1 });
    assert.ok(v2);
    assert.equal(
      await saveUpload(kv, key, record({ length: 7 }), { expect: v1 }),
      null,
      "stale versionstamp",
    );
    const found = await findUpload(kv, key);
    assert.equal(found?.record.length, 5);
    assert.equal(found?.versionstamp, v2);
    const all = [];
    for await (const e of listUploads(kv)) all.push(e.record.id);
    assert.deepEqual(all, ["u1"]);
  });
});

Deno.test("saveUpload() and deleteUpload() fail when the given lock was lost", async () => {
  await withKv(async (kv) => {
    const key = await targetKeyOf("/srv/a.bin");
    const v1 = (await saveUpload(kv, key, record(), { expect: null }))!;
    const lock = (await acquireUploadLock(kv, key, { now: 0, ttlMs: 10 }))!;
    const v2 = await saveUpload(kv, key, record({ length: 3 }), { expect: v1, lock });
    assert.ok(v2, "a held lock passes and keeps its versionstamp");
    assert.ok(await acquireUploadLock(kv, key, { now: 100, ttlMs: 10 }), "someone takes the expired lease");
    assert.equal(await saveUpload(kv, key, record({ length: 4 }), { expect: v2, lock }), null);
    assert.equal(await deleteUpload(kv, key, { expect: v2!, lock }), false);
    assert.equal(await deleteUpload(kv, key, { expect: v2! }), true);
    assert.equal(await findUpload(kv, key), null);
  });
});
