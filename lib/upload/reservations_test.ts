import assert from "node:assert/strict";
import { InsufficientStorageError } from "../errors.ts";
import { QuotaLedger, type ReserveDeps, reserveQuota } from "./reservations.ts";
import type { UploadRecord } from "./store.ts";
import { keys } from "../storage/keys.ts";
import { UsageCache } from "../quota.ts";

async function withLedger(
  fn: (deps: ReserveDeps, root: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "fbresv-" }));
  const kv = await Deno.openKv(":memory:");
  try {
    await fn({ config: { root }, kv, usage: new UsageCache(), quotaLedger: new QuotaLedger() }, root);
  } finally {
    kv.close();
    await Deno.remove(root, { recursive: true });
  }
}

const alice = { id: 1, scope: "/", quota: 100 };
const over = (err: unknown) => err instanceof InsufficientStorageError && err.code === "quota_exceeded";

Deno.test("reserveQuota: holds add up against the quota and the files; a released hold frees its bytes", async () => {
  await withLedger(async (deps, root) => {
    await Deno.writeTextFile(`${root}/a.txt`, "a".repeat(30));
    const first = await reserveQuota(deps, alice, 40);
    await assert.rejects(reserveQuota(deps, alice, 31), over);
    const second = await reserveQuota(deps, alice, 30);
    assert.equal(second.bytes, 30);
    first.release();
    first.release();
    (await reserveQuota(deps, alice, 40)).release();
    second[Symbol.dispose]();
    (await reserveQuota(deps, alice, 70)).release();
  });
});

Deno.test("reserveQuota: users without a quota are never refused", async () => {
  await withLedger(async (deps) => {
    const hold = await reserveQuota(deps, { id: 2, scope: "/", quota: 0 }, 1e15);
    await hold.grow(1e16);
    assert.equal(hold.bytes, 0);
  });
});

Deno.test("grow and settle: a stream holds what it brought until its bytes are in place", async () => {
  await withLedger(async (deps, root) => {
    const stream = await reserveQuota(deps, alice, 0);
    await stream.grow(50);
    assert.ok(stream.bytes >= 50);
    await assert.rejects(reserveQuota(deps, alice, 51), over);
    await assert.rejects(stream.grow(101), over);
    // The first 50 bytes land in a file: settled, they count once (as a file), not twice.
    await Deno.writeTextFile(`${root}/part1`, "p".repeat(50));
    stream.settle(50);
    await stream.grow(60);
    (await reserveQuota(deps, alice, 40)).release();
    await assert.rejects(reserveQuota(deps, alice, 41), over);
    stream.release();
  });
});

Deno.test("unfinished tus uploads hold their declared length, except the one being replaced", async () => {
  await withLedger(async (deps, root) => {
    const record: UploadRecord = {
      id: "u1",
      userId: 1,
      vpath: "/big.bin",
      target: `${root}/big.bin`,
      length: 40,
      override: false,
      createdAt: 0,
    };
    await deps.kv.set(keys.uploadRecord("k1"), record);
    // Another user's upload elsewhere does not count.
    await deps.kv.set(keys.uploadRecord("k2"), { ...record, userId: 9, target: "/elsewhere/x" });
    await assert.rejects(reserveQuota(deps, alice, 61), over);
    (await reserveQuota(deps, alice, 60)).release();
    (await reserveQuota(deps, alice, 100, { target: `${root}/big.bin` })).release();
  });
});

Deno.test("parallel reservations: exactly as many as fit succeed", async () => {
  await withLedger(async (deps, root) => {
    await Deno.writeTextFile(`${root}/a.txt`, "a".repeat(45));
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => reserveQuota(deps, alice, 10)));
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 5);
    for (const r of results) {
      if (r.status === "fulfilled") r.value.release();
      else assert.ok(over(r.reason));
    }
  });
});

Deno.test("two ledgers (two apps on one root) share no holds", async () => {
  await withLedger(async (deps) => {
    const other: ReserveDeps = { ...deps, usage: new UsageCache(), quotaLedger: new QuotaLedger() };
    using _mine = await reserveQuota(deps, alice, 80);
    await assert.rejects(reserveQuota(deps, alice, 30), over, "the hold counts in its own ledger");
    using theirs = await reserveQuota(other, alice, 80);
    assert.equal(theirs.bytes, 80, "the other app's hold does not count here");
    await assert.rejects(reserveQuota(other, alice, 30), over);
  });
});
