import assert from "node:assert/strict";
import { LockedError } from "../errors.ts";
import {
  createLock,
  type DavLock,
  DEFAULT_LOCK_SECONDS,
  findLock,
  locksBelow,
  locksCovering,
  MAX_LOCK_SECONDS,
  newLockToken,
  parseTimeout,
  refreshLock,
  removeLock,
} from "./locks.ts";

function lockOf(segs: string[], options: Partial<DavLock> = {}): DavLock {
  return {
    token: newLockToken(),
    segs,
    root: "/dav/" + segs.join("/"),
    depth: "infinity",
    scope: "exclusive",
    owner: "",
    userId: 1,
    timeout: 60,
    expires: 1_000_000 + 60_000,
    ...options,
  };
}

Deno.test("parseTimeout() takes the first usable value and caps it", () => {
  const table: [string | null, number][] = [
    [null, DEFAULT_LOCK_SECONDS],
    ["", DEFAULT_LOCK_SECONDS],
    ["Second-10", 10],
    ["second-0", 1],
    ["Infinite, Second-4100000000", MAX_LOCK_SECONDS],
    ["Second-99999999999", MAX_LOCK_SECONDS],
    ["bogus, Second-30", 30],
    ["Second--5", DEFAULT_LOCK_SECONDS],
  ];
  for (const [header, want] of table) assert.equal(parseTimeout(header), want, String(header));
});

Deno.test("createLock() refuses conflicting locks on the path, ancestors and descendants", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const now = 1_000_000;
    const dir = lockOf(["r", "dir"]);
    await createLock(kv, dir, now);
    await assert.rejects(createLock(kv, lockOf(["r", "dir", "f"]), now), LockedError);
    await assert.rejects(createLock(kv, lockOf(["r"]), now), LockedError);
    await createLock(kv, lockOf(["r", "other"]), now);
    assert.equal((await locksCovering(kv, ["r", "dir", "x", "y"], now)).length, 1);
    assert.equal((await locksBelow(kv, ["r"], now)).length, 2);
    // Shared locks coexist; an exclusive one does not join them.
    await createLock(kv, lockOf(["s"], { scope: "shared" }), now);
    await createLock(kv, lockOf(["s"], { scope: "shared" }), now);
    await assert.rejects(createLock(kv, lockOf(["s"]), now), LockedError);
    // Expired locks are gone even before KV drops them.
    assert.equal(await findLock(kv, dir.token, now + 61_000), null);
    await createLock(kv, lockOf(["r", "dir", "f"]), now + 61_000);
    const refreshed = await refreshLock(kv, dir, 600, now);
    assert.equal(refreshed.expires, now + 600_000);
    await removeLock(kv, dir);
    assert.equal(await findLock(kv, dir.token, now), null);
  } finally {
    kv.close();
  }
});

Deno.test("createLock() lets exactly one of many simultaneous lockers on two database handles win", async () => {
  const dir = await Deno.makeTempDir();
  const a = await Deno.openKv(`${dir}/kv.sqlite`);
  const b = await Deno.openKv(`${dir}/kv.sqlite`);
  try {
    const now = Date.now();
    const results = await Promise.allSettled(
      Array.from(
        { length: 12 },
        (_, i) => createLock(i % 2 ? a : b, lockOf(["x", "y"], { expires: now + 60_000 }), now),
      ),
    );
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    for (const r of results) {
      if (r.status === "rejected") {
        assert.ok(r.reason instanceof LockedError || r.reason?.status === 503, String(r.reason));
      }
    }
    assert.equal((await locksCovering(a, ["x", "y"], now)).length, 1);
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});
