import assert from "node:assert/strict";
import { HttpError, LockedError } from "../errors.ts";
import {
  createLock,
  type DavLock,
  DEFAULT_LOCK_SECONDS,
  findLock,
  locksBelow,
  locksCovering,
  locksOfUser,
  MAX_LOCK_SECONDS,
  MAX_LOCKS_PER_USER,
  MAX_SHARED_LOCKS,
  mayRemoveLock,
  newLockToken,
  parseTimeout,
  refreshLock,
  removeLock,
  removeUserLocks,
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
    ["Second-3601", 3600],
    ["Infinite", 3600],
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

Deno.test("locks are capped: an hour, shared locks per resource, locks per user", async () => {
  assert.equal(MAX_LOCK_SECONDS, 3600);
  const kv = await Deno.openKv(":memory:");
  try {
    const now = 1_000_000;
    for (let i = 0; i < MAX_SHARED_LOCKS; i++) {
      await createLock(kv, lockOf(["s"], { scope: "shared", userId: 100 + i }), now);
    }
    await assert.rejects(
      createLock(kv, lockOf(["s"], { scope: "shared", userId: 1 }), now),
      (e: HttpError) => e.status === 507 && e.code === "too_many_shared_locks",
    );
    // Below it is another resource.
    await createLock(kv, lockOf(["s", "child"], { scope: "shared", depth: "0" }), now);
    for (let i = 1; i < MAX_LOCKS_PER_USER; i++) {
      await createLock(kv, lockOf(["u", `f${i}`], { userId: 7 }), now);
    }
    assert.equal((await locksOfUser(kv, 7, now)).length, MAX_LOCKS_PER_USER - 1);
    const last = lockOf(["u", "last"], { userId: 7 });
    await createLock(kv, last, now);
    await assert.rejects(
      createLock(kv, lockOf(["u", "one-more"], { userId: 7 }), now),
      (e: HttpError) => e.status === 507 && e.code === "too_many_locks",
    );
    // Another user is not held back, and an expired or removed lock frees its place.
    await createLock(kv, lockOf(["u", "other"], { userId: 8 }), now);
    await removeLock(kv, last);
    await createLock(kv, lockOf(["u", "one-more"], { userId: 7 }), now);
    await createLock(kv, lockOf(["u", "later"], { userId: 7 }), now + 61_000);
  } finally {
    kv.close();
  }
});

Deno.test("mayRemoveLock(): the holder, an admin, or an owner of the scope the lock lies in", () => {
  // Bob (scope /srv) locked a file in Alice's home /srv/users/alice.
  const lock = lockOf(["srv", "users", "alice", "f.txt"], { userId: 2, scopeSegs: ["srv"] });
  const who = (userId: number, scopeSegs: string[], admin = false) => ({ userId, admin, scopeSegs });
  const table: [string, ReturnType<typeof who>, boolean][] = [
    ["the holder", who(2, ["srv"]), true],
    ["an admin elsewhere", who(9, ["other"], true), true],
    ["the home's owner", who(3, ["srv", "users", "alice"]), true],
    ["a user sharing the holder's scope", who(4, ["srv"]), true],
    ["a user of a folder around the home", who(5, ["srv", "users"]), true],
    ["a user with a wider scope", who(6, []), false],
    ["a user whose scope does not hold the file", who(7, ["srv", "users", "carol"]), false],
  ];
  for (const [label, w, want] of table) assert.equal(mayRemoveLock(lock, w), want, label);
  // Alice's own lock: Bob's wider scope does not make him its owner.
  const alices = lockOf(["srv", "users", "alice", "g.txt"], {
    userId: 3,
    scopeSegs: ["srv", "users", "alice"],
  });
  assert.equal(mayRemoveLock(alices, who(2, ["srv"])), false);
  // A lock kept from before scopes were recorded counts as taken from the root.
  assert.equal(mayRemoveLock(lockOf(["srv", "x"], { userId: 2 }), who(3, ["srv"])), true);
});

Deno.test("removeUserLocks() removes every lock of one user and no other", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const now = 1_000_000;
    const mine = [lockOf(["a"], { userId: 5 }), lockOf(["b"], { userId: 5, scope: "shared" })];
    const theirs = lockOf(["b"], { userId: 6, scope: "shared" });
    for (const lock of [...mine, theirs]) await createLock(kv, lock, now);
    // A lock written before the holder index existed.
    const legacy = lockOf(["c"], { userId: 5 });
    await kv.set(["webdav", "locks", legacy.token], legacy);
    await kv.set(["webdav", "lock_paths", "c", true, legacy.token], true);
    assert.equal(await removeUserLocks(kv, 5), 3);
    for (const lock of [...mine, legacy]) assert.equal(await findLock(kv, lock.token, now), null);
    assert.equal((await locksCovering(kv, ["c"], now)).length, 0);
    assert.deepEqual((await locksCovering(kv, ["b"], now)).map((l) => l.token), [theirs.token]);
    assert.deepEqual(await locksOfUser(kv, 5, now), []);
  } finally {
    kv.close();
  }
});
