import assert from "node:assert/strict";
import { InsufficientStorageError } from "../errors.ts";
import { QuotaLedger, type ReserveDeps, reserveQuota } from "./reservations.ts";
import type { UploadRecord } from "./store.ts";
import { keys } from "../storage/keys.ts";
import { scopeIdOf, UsageCache } from "../quota.ts";
import { HOLD_LEASE_MS, MAX_HOLD_MS, type QuotaHoldRecord } from "./quota_ledger.ts";

/** A fake clock every ledger of a test reads. */
const clock = { now: 1_000_000 };

/** Another app on the same KV and root: its own usage cache and ledger (an instance of its own). */
function otherInstance(deps: ReserveDeps): ReserveDeps {
  return {
    ...deps,
    usage: new UsageCache(),
    quotaLedger: new QuotaLedger(deps.kv, { now: () => clock.now }),
  };
}

async function withLedger(
  fn: (deps: ReserveDeps, root: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "fbresv-" }));
  const kv = await Deno.openKv(":memory:");
  const quotaLedger = new QuotaLedger(kv, { now: () => clock.now });
  try {
    await fn({ config: { root }, kv, usage: new UsageCache(), quotaLedger }, root);
  } finally {
    quotaLedger.close();
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
    await first.release();
    await first.release();
    await (await reserveQuota(deps, alice, 40)).release();
    await second[Symbol.asyncDispose]();
    await (await reserveQuota(deps, alice, 70)).release();
    assert.equal(await holdsInKv(deps, root), 0, "released holds leave nothing in KV");
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
    await (await reserveQuota(deps, alice, 40)).release();
    await assert.rejects(reserveQuota(deps, alice, 41), over);
    await stream.release();
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
    await (await reserveQuota(deps, alice, 60)).release();
    await (await reserveQuota(deps, alice, 100, { target: `${root}/big.bin` })).release();
  });
});

Deno.test("parallel reservations: exactly as many as fit succeed", async () => {
  await withLedger(async (deps, root) => {
    await Deno.writeTextFile(`${root}/a.txt`, "a".repeat(45));
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => reserveQuota(deps, alice, 10)));
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 5);
    for (const r of results) {
      if (r.status === "fulfilled") await r.value.release();
      else assert.ok(over(r.reason));
    }
  });
});

/** Leases of holds of the root scope in KV (expired ones included). */
async function holdsInKv(deps: ReserveDeps, root: string): Promise<number> {
  let n = 0;
  for await (
    const _ of deps.kv.list({ prefix: [...keys.quotaScopePrefix(await scopeIdOf(root)), "lease"] })
  ) n++;
  return n;
}

Deno.test("two ledgers on one KV (two instances) count each other's holds", async () => {
  await withLedger(async (deps, root) => {
    const other = otherInstance(deps);
    try {
      await using _mine = await reserveQuota(deps, alice, 80);
      await assert.rejects(reserveQuota(other, alice, 30), over, "the other instance's hold counts");
      await using theirs = await reserveQuota(other, alice, 20);
      assert.equal(theirs.bytes, 20);
      await assert.rejects(reserveQuota(deps, alice, 1), over);
      assert.equal(await holdsInKv(deps, root), 2);
    } finally {
      other.quotaLedger.close();
    }
    assert.equal(await holdsInKv(deps, root), 0);
  });
});

Deno.test("parallel reservations on two instances: exactly as many as fit succeed", async () => {
  await withLedger(async (deps, root) => {
    await Deno.writeTextFile(`${root}/a.txt`, "a".repeat(45));
    const other = otherInstance(deps);
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => reserveQuota(i % 2 ? other : deps, alice, 10)),
      );
      assert.equal(results.filter((r) => r.status === "fulfilled").length, 5);
      for (const r of results) {
        if (r.status === "fulfilled") await r.value.release();
        else assert.ok(over(r.reason), String(r.reason));
      }
    } finally {
      other.quotaLedger.close();
    }
  });
});

Deno.test("bytes that land on one instance are counted by the other, whose usage was cached before", async () => {
  await withLedger(async (deps, root) => {
    await Deno.writeTextFile(`${root}/a.txt`, "a".repeat(45));
    const other = otherInstance(deps);
    try {
      // The other instance counts 45 bytes and caches the count.
      await (await reserveQuota(other, alice, 10)).release();
      const hold = await reserveQuota(deps, alice, 10);
      await Deno.writeTextFile(`${root}/b.txt`, "b".repeat(10));
      await hold.release();
      await assert.rejects(reserveQuota(other, alice, 46), over, "55 bytes are used now");
      await (await reserveQuota(other, alice, 45)).release();
    } finally {
      other.quotaLedger.close();
    }
  });
});

Deno.test("a crashed instance's hold counts until its lease runs out, then it is swept", async () => {
  await withLedger(async (deps, root) => {
    const crashed = otherInstance(deps);
    await reserveQuota(crashed, alice, 80);
    // The instance dies: its heartbeat stops and nobody releases the hold.
    crashed.quotaLedger.close();
    await assert.rejects(reserveQuota(deps, alice, 30), over);
    clock.now += HOLD_LEASE_MS - 1;
    await assert.rejects(reserveQuota(deps, alice, 30), over, "the lease still runs");
    clock.now += 2;
    await using hold = await reserveQuota(deps, alice, 100);
    assert.equal(hold.bytes, 100);
    assert.equal(await holdsInKv(deps, root), 1, "the expired lease was deleted while admitting");
  });
});

Deno.test("the heartbeat renews the leases of running writes only", async () => {
  await withLedger(async (deps) => {
    const other = otherInstance(deps);
    try {
      const running = await reserveQuota(deps, alice, 50);
      const ended = await reserveQuota(deps, alice, 30);
      await ended.release();
      clock.now += HOLD_LEASE_MS - 1000;
      await deps.quotaLedger.heartbeat();
      clock.now += HOLD_LEASE_MS - 1000;
      await assert.rejects(reserveQuota(other, alice, 51), over, "the renewed hold still counts");
      await (await reserveQuota(other, alice, 50)).release();
      await running.release();
      await (await reserveQuota(other, alice, 100)).release();
    } finally {
      other.quotaLedger.close();
    }
  });
});

Deno.test("a hold's lease in KV names its bytes, instance and deadline", async () => {
  await withLedger(async (deps, root) => {
    await using _hold = await reserveQuota(deps, alice, 42);
    const prefix = [...keys.quotaScopePrefix(await scopeIdOf(root)), "lease"];
    const leases = await Array.fromAsync(deps.kv.list<QuotaHoldRecord>({ prefix }));
    assert.equal(leases.length, 1);
    assert.deepEqual(leases[0].value, {
      bytes: 42,
      instance: deps.quotaLedger.instance,
      until: clock.now + HOLD_LEASE_MS,
    });
  });
});

Deno.test("the heartbeat stops renewing a hold after MAX_HOLD_MS: its lease then runs out", async () => {
  await withLedger(async (deps) => {
    const other = otherInstance(deps);
    try {
      const endless = await reserveQuota(deps, alice, 60);
      clock.now += MAX_HOLD_MS - 30_000;
      await deps.quotaLedger.heartbeat();
      clock.now += 40_000;
      await deps.quotaLedger.heartbeat();
      clock.now += HOLD_LEASE_MS - 40_000 - 1;
      await assert.rejects(reserveQuota(other, alice, 41), over, "renewed before the bound");
      clock.now += 2;
      await (await reserveQuota(other, alice, 100)).release();
      await endless.release();
    } finally {
      other.quotaLedger.close();
    }
  });
});

Deno.test("the heartbeat timer renews the leases by itself", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "fbresv-" }));
  const kv = await Deno.openKv(":memory:");
  const quotaLedger = new QuotaLedger(kv, { now: () => clock.now, renewMs: 5 });
  const deps: ReserveDeps = { config: { root }, kv, usage: new UsageCache(), quotaLedger };
  try {
    await using _hold = await reserveQuota(deps, alice, 10);
    const prefix = [...keys.quotaScopePrefix(await scopeIdOf(root)), "lease"];
    const until = async () => (await Array.fromAsync(kv.list<QuotaHoldRecord>({ prefix })))[0].value.until;
    clock.now += 1000;
    // Waits for the timer's next beat, polling a bounded number of times (a broken timer fails, never hangs).
    let polls = 0;
    while (await until() !== clock.now + HOLD_LEASE_MS && ++polls < 4000) {
      await new Promise((r) => setTimeout(r, 5));
    }
    assert.equal(await until(), clock.now + HOLD_LEASE_MS, "renewed by the timer");
  } finally {
    quotaLedger.close();
    kv.close();
    await Deno.remove(root, { recursive: true });
  }
});
