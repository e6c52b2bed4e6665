import assert from "node:assert/strict";
import { keys } from "../storage/keys.ts";
import {
  acquireUploadLock,
  dropLease,
  forgetLease,
  isLeaseLive,
  keepUploadLock,
  LOCK_TTL_MS,
  parkLease,
  releaseParkedLeases,
  releaseUploadLock,
  renewUploadLock,
  takeLease,
  UploadLeases,
} from "./lock.ts";
import { targetKeyOf } from "./store.ts";
import { withKv } from "./_testing.ts";

/** One app's leases per KV handle (as AppDeps.leases); two handles on one file act as two instances. */
const apps = new WeakMap<Deno.Kv, UploadLeases>();
function leasesOf(kv: Deno.Kv): UploadLeases {
  let leases = apps.get(kv);
  if (!leases) apps.set(kv, leases = new UploadLeases(kv));
  return leases;
}

async function lockStamp(kv: Deno.Kv, key: string): Promise<string | null> {
  return (await kv.get(keys.uploadLock(key))).versionstamp;
}

Deno.test("takeLease() reuses a parked lease without a KV write, and refuses while it is in use", async () => {
  await withKv(async (kv) => {
    const first = await takeLease(leasesOf(kv), "k", { now: 0 });
    assert.ok(first);
    assert.equal(await takeLease(leasesOf(kv), "k", { now: 1 }), null, "busy in this process");
    parkLease(leasesOf(kv), "k", first);
    const stamp = await lockStamp(kv, "k");
    const again = await takeLease(leasesOf(kv), "k", { now: 100 });
    assert.equal(again, first, "the parked lease is handed out again");
    assert.equal(await lockStamp(kv, "k"), stamp, "no KV write");
    parkLease(leasesOf(kv), "k", again!);
    // Past half of its TTL the lease is renewed before reuse.
    const renewed = await takeLease(leasesOf(kv), "k", { now: LOCK_TTL_MS / 2 + 1 });
    assert.equal(renewed, first);
    assert.notEqual(await lockStamp(kv, "k"), stamp);
    assert.equal(renewed!.until, LOCK_TTL_MS / 2 + 1 + LOCK_TTL_MS);
    await dropLease(leasesOf(kv), "k", renewed!);
    assert.equal(await lockStamp(kv, "k"), null, "dropped leases are released in KV");
  });
});

Deno.test("a parked lease blocks another instance until it runs out", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fblease-" });
  const a = await Deno.openKv(`${dir}/kv.sqlite`);
  const b = await Deno.openKv(`${dir}/kv.sqlite`);
  try {
    const lock = (await takeLease(leasesOf(a), "k", { now: 0 }))!;
    parkLease(leasesOf(a), "k", lock);
    assert.equal(await takeLease(leasesOf(b), "k", { now: LOCK_TTL_MS - 1 }), null);
    const taken = await takeLease(leasesOf(b), "k", { now: LOCK_TTL_MS + 1 });
    assert.ok(taken, "an expired lease is taken over");
    assert.equal(
      await takeLease(leasesOf(a), "k", { now: LOCK_TTL_MS + 2 }),
      null,
      "and the old holder cannot renew it",
    );
    await dropLease(leasesOf(b), "k", taken);
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("releaseParkedLeases() frees idle leases in KV but leaves busy ones", async () => {
  await withKv(async (kv) => {
    const idle = (await takeLease(leasesOf(kv), "idle", { now: 0 }))!;
    parkLease(leasesOf(kv), "idle", idle);
    await takeLease(leasesOf(kv), "busy", { now: 0 });
    await releaseParkedLeases(leasesOf(kv));
    assert.equal(await lockStamp(kv, "idle"), null);
    assert.notEqual(await lockStamp(kv, "busy"), null);
    assert.ok(await acquireUploadLock(kv, "idle", { now: 1 }), "free for anyone");
  });
});

Deno.test("forgetLease() drops the local entry after a commit deleted the lock key", async () => {
  await withKv(async (kv) => {
    const lock = (await takeLease(leasesOf(kv), "k", { now: 0 }))!;
    await kv.delete(keys.uploadLock("k"));
    forgetLease(leasesOf(kv), "k", lock);
    assert.ok(await takeLease(leasesOf(kv), "k", { now: 1 }), "a fresh lease, not the stale local one");
  });
});

Deno.test("isLeaseLive() counts a lease in use, parked here or held elsewhere, until it runs out", async () => {
  await withKv(async (kv) => {
    assert.equal(await isLeaseLive(leasesOf(kv), "k", { now: 0 }), false);
    const lock = await takeLease(leasesOf(kv), "k", { now: 0 });
    assert.ok(lock);
    assert.equal(
      await isLeaseLive(leasesOf(kv), "k", { now: LOCK_TTL_MS * 5 }),
      true,
      "in use: live whatever the time",
    );
    parkLease(leasesOf(kv), "k", lock);
    assert.equal(
      await isLeaseLive(leasesOf(kv), "k", { now: LOCK_TTL_MS - 1 }),
      true,
      "parked (takeLease would reuse it)",
    );
    assert.equal(await isLeaseLive(leasesOf(kv), "k", { now: LOCK_TTL_MS + 1 }), false, "parked and run out");
    await releaseParkedLeases(leasesOf(kv));
    assert.ok(await acquireUploadLock(kv, "other", { now: 0 }), "another instance's lease, in KV only");
    assert.equal(await isLeaseLive(leasesOf(kv), "other", { now: LOCK_TTL_MS - 1 }), true);
    assert.equal(await isLeaseLive(leasesOf(kv), "other", { now: LOCK_TTL_MS + 1 }), false);
  });
});

Deno.test("acquireUploadLock() refuses a held lease and takes over an expired one", async () => {
  await withKv(async (kv) => {
    const key = await targetKeyOf("/srv/a.bin");
    const first = await acquireUploadLock(kv, key, { now: 1000, ttlMs: 100 });
    assert.ok(first);
    assert.equal(await acquireUploadLock(kv, key, { now: 1050, ttlMs: 100 }), null);
    const second = await acquireUploadLock(kv, key, { now: 1101, ttlMs: 100 });
    assert.ok(second, "expired lease is free");
    assert.equal(
      await renewUploadLock(kv, first, { now: 1102, ttlMs: 100 }),
      false,
      "lost lease cannot renew",
    );
    await releaseUploadLock(kv, first);
    assert.ok(
      (await kv.get(keys.uploadLock(key))).value,
      "releasing a lost lease leaves the new holder alone",
    );
    assert.equal(await renewUploadLock(kv, second, { now: 1150, ttlMs: 100 }), true);
    assert.equal(
      await acquireUploadLock(kv, key, { now: 1201, ttlMs: 100 }),
      null,
      "renewed lease still held",
    );
    await releaseUploadLock(kv, second);
    assert.ok(await acquireUploadLock(kv, key, { now: 1202, ttlMs: 100 }));
  });
});

Deno.test("keepUploadLock() renews the lease while a long chunk streams", async () => {
  await withKv(async (kv) => {
    const key = await targetKeyOf("/srv/a.bin");
    let now = 0;
    const lock = (await acquireUploadLock(kv, key, { now, ttlMs: 60 }))!;
    const keeper = keepUploadLock(kv, lock, { now: () => now, ttlMs: 60 });
    for (let i = 0; i < 5; i++) {
      // Move the clock by less than a TTL, then wait (in real time) for the next renewal.
      const seen = lock.versionstamp;
      now += 25;
      for (let waited = 0; lock.versionstamp === seen; waited += 5) {
        assert.ok(waited < 5000, "the lease was never renewed");
        await new Promise((r) => setTimeout(r, 5));
      }
    }
    assert.equal(await acquireUploadLock(kv, key, { now, ttlMs: 60 }), null, "still held after 2 TTLs");
    assert.equal(await keeper.stop(), true);
  });
});
