import assert from "node:assert/strict";
import { TooManyRequestsError } from "../errors.ts";
import { SECOND_FACTOR_BUDGET, SECOND_FACTOR_WINDOW_MS, secondFactorThrottle, Throttle } from "./throttle.ts";

async function outcomes(attempts: Promise<unknown>[]): Promise<{ granted: number; refused: number }> {
  const settled = await Promise.allSettled(attempts);
  for (const s of settled) {
    if (s.status === "rejected") assert.ok(s.reason instanceof TooManyRequestsError, String(s.reason));
  }
  const granted = settled.filter((s) => s.status === "fulfilled").length;
  return { granted, refused: settled.length - granted };
}

Deno.test("Throttle.reserve(): 100 simultaneous attempts get exactly `limit` slots", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const t = new Throttle(kv, { scope: "login", limit: 5, clientLimit: 25 });
    const now = 1_000_000;
    const r = await outcomes(Array.from({ length: 100 }, () => t.reserve("198.51.100.1", "alice", now)));
    assert.deepEqual(r, { granted: 5, refused: 95 });
    const err = await t.reserve("198.51.100.1", "alice", now + 1000).catch((e) => e);
    assert.ok(err instanceof TooManyRequestsError);
    assert.equal(err.headers["Retry-After"], "59");
  } finally {
    kv.close();
  }
});

Deno.test("Throttle: other clients and other users keep their own slots; the client cap spans users", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const t = new Throttle(kv, { scope: "login", limit: 2, clientLimit: 5 });
    const now = 1_000_000;
    for (let i = 0; i < 2; i++) await t.reserve("198.51.100.1", "alice", now);
    await assert.rejects(t.reserve("198.51.100.1", "alice", now), TooManyRequestsError);
    await t.reserve("198.51.100.2", "alice", now);
    await t.reserve("198.51.100.1", "bob", now);
    await t.reserve("198.51.100.1", "carol", now);
    await t.reserve("198.51.100.1", "dave", now);
    // Five attempts by this client in the window: a sixth user is refused too.
    await assert.rejects(t.reserve("198.51.100.1", "erin", now), TooManyRequestsError);
    // One IPv6 /64 is one client.
    await t.reserve("2001:db8::1", "alice", now);
    await t.reserve("2001:db8::2", "alice", now);
    await assert.rejects(t.reserve("2001:db8::3", "alice", now), TooManyRequestsError);
  } finally {
    kv.close();
  }
});

Deno.test("Throttle: a released slot is free again; counters end with their window", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const t = new Throttle(kv, { scope: "share", limit: 2, clientLimit: 10, windowMs: 60_000 });
    const now = 1_000_000;
    const first = await t.reserve("198.51.100.1", "hash1", now);
    await t.reserve("198.51.100.1", "hash1", now);
    await assert.rejects(t.reserve("198.51.100.1", "hash1", now), TooManyRequestsError);
    await first.release();
    await t.reserve("198.51.100.1", "hash1", now);
    await assert.rejects(t.reserve("198.51.100.1", "hash1", now + 59_000), TooManyRequestsError);
    await t.reserve("198.51.100.1", "hash1", now + 60_000);
  } finally {
    kv.close();
  }
});

Deno.test("Throttle: two instances on one database share their counters, also under concurrency", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fbthrottle-" });
  const kvA = await Deno.openKv(`${dir}/db.kv`);
  const kvB = await Deno.openKv(`${dir}/db.kv`);
  try {
    const options = { scope: "login", limit: 6, clientLimit: 30 };
    const a = new Throttle(kvA, options), b = new Throttle(kvB, options);
    const now = 1_000_000;
    const attempts = Array.from(
      { length: 80 },
      (_, i) => (i % 2 ? a : b).reserve("198.51.100.1", "alice", now),
    );
    assert.deepEqual(await outcomes(attempts), { granted: 6, refused: 74 });
    await assert.rejects(a.reserve("198.51.100.1", "alice", now), TooManyRequestsError);
    await assert.rejects(b.reserve("198.51.100.1", "alice", now), TooManyRequestsError);
  } finally {
    kvA.close();
    kvB.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Throttle: very long subjects are keyed by a bounded prefix", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const t = new Throttle(kv, { scope: "login", limit: 1, clientLimit: 5 });
    await t.reserve("198.51.100.1", "x".repeat(100_000), 1_000_000);
    await assert.rejects(t.reserve("198.51.100.1", "x".repeat(100_000), 1_000_000), TooManyRequestsError);
  } finally {
    kv.close();
  }
});

/**
 * A KV whose first commit is held until `answer()` is called (a slow remote database): it "lands" at once and only
 * its answer waits, or it "fails" when answered, having written nothing.
 */
function holdFirstCommit(kv: Deno.Kv, outcome: "lands" | "fails") {
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => answer = resolve);
  let held!: () => void;
  const firstHeld = new Promise<void>((resolve) => held = resolve);
  let commits = 0;
  const wrapped = {
    getMany: kv.getMany.bind(kv),
    atomic() {
      const op = kv.atomic();
      const commit = op.commit.bind(op);
      op.commit = async () => {
        if (commits++ !== 0) return await commit();
        const result = outcome === "lands" ? await commit() : null;
        held();
        await answered;
        if (!result) throw new Error("connection lost");
        return result;
      };
      return op;
    },
  } as unknown as Deno.Kv;
  return { kv: wrapped, firstHeld, answer };
}

Deno.test("Throttle: a slot whose commit landed but has not answered yet is not counted twice", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const slow = holdFirstCommit(kv, "lands");
    const t = new Throttle(slow.kv, { scope: "login", limit: 3, clientLimit: 15 });
    const now = 1_000_000;
    const a = t.reserve("198.51.100.1", "alice", now);
    await slow.firstHeld;
    // KV holds a's slot while a still waits for its answer; b reads that count and takes the second slot.
    await t.reserve("198.51.100.1", "alice", now);
    // Two slots of three are taken: c must get the third, not be refused on a count that holds a twice.
    const c = t.reserve("198.51.100.1", "alice", now);
    slow.answer();
    await a;
    await c;
    await assert.rejects(t.reserve("198.51.100.1", "alice", now), TooManyRequestsError);
  } finally {
    kv.close();
  }
});

Deno.test("Throttle: an attempt that waits on a slot in flight takes it when that slot's commit fails", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const slow = holdFirstCommit(kv, "fails");
    const t = new Throttle(slow.kv, { scope: "login", limit: 1, clientLimit: 5 });
    const now = 1_000_000;
    const a = t.reserve("198.51.100.1", "alice", now);
    await slow.firstHeld;
    // The only slot is in flight: b can pass only if a's commit fails, so it waits instead of being refused.
    const b = t.reserve("198.51.100.1", "alice", now);
    slow.answer();
    await assert.rejects(a, /connection lost/);
    await b;
    await assert.rejects(t.reserve("198.51.100.1", "alice", now), TooManyRequestsError);
  } finally {
    kv.close();
  }
});

Deno.test("Throttle.reserveSubject(): one budget per subject whatever the client, shared by two instances", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const a = secondFactorThrottle(kv);
    const b = secondFactorThrottle(kv);
    const now = 1_000_000;
    assert.equal(SECOND_FACTOR_BUDGET, 10);
    const r = await outcomes(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).reserveSubject("user:2", now)),
    );
    assert.deepEqual(r, { granted: 10, refused: 50 });
    const err = await a.reserveSubject("user:2", now + 1000).catch((e) => e);
    assert.ok(err instanceof TooManyRequestsError);
    assert.equal(err.headers["Retry-After"], String(SECOND_FACTOR_WINDOW_MS / 1000 - 1));
    // Another account has its own budget; the per-client counters of reserve() are separate.
    await a.reserveSubject("user:3", now);
    await a.reserve("198.51.100.1", "user:2", now);
    // A right code gives its slot back, and the budget is whole again once its window ended.
    const c = secondFactorThrottle(kv);
    const slot = await c.reserveSubject("user:4", now);
    await slot.release();
    for (let i = 0; i < 10; i++) await c.reserveSubject("user:4", now);
    await assert.rejects(c.reserveSubject("user:4", now), TooManyRequestsError);
    await b.reserveSubject("user:2", now + SECOND_FACTOR_WINDOW_MS);
  } finally {
    kv.close();
  }
});
