import assert from "node:assert/strict";
import { BadRequestError } from "../errors.ts";
import type { PublishSchedule } from "../types.ts";
import {
  cancelSchedule,
  executeSchedule,
  findSchedule,
  getBuildLog,
  isPublishMessage,
  listSchedules,
  MAX_LOG_CHARS,
  type PublishAct,
  type PublishMessage,
  putSchedule,
  runScheduleMessage,
  scheduleIdOf,
} from "./schedule.ts";

const HOUR = 3600_000;

/** A clock the test moves by hand. */
function fakeClock(start: number) {
  let now = start;
  return { now: () => now, set: (t: number) => now = t };
}

/** An act that counts its calls. */
function countingAct(result: Awaited<ReturnType<PublishAct>> = {}) {
  const calls: PublishSchedule[] = [];
  const act: PublishAct = (s) => {
    calls.push(s);
    return Promise.resolve(result);
  };
  return { act, calls };
}

/** Listens to the queue and hands every run's result to the test. */
function listen(kv: Deno.Kv, store: Parameters<typeof runScheduleMessage>[0]) {
  const runs: (PublishSchedule | null)[] = [];
  let wake = () => {};
  const done = kv.listenQueue(async (m: unknown) => {
    if (!isPublishMessage(m)) return;
    runs.push(await runScheduleMessage(store, m));
    wake();
  });
  const next = async (count: number) => {
    while (runs.length < count) await new Promise<void>((r) => wake = r);
    return runs;
  };
  return { done, next };
}

const input = (id: string, at: number, userId = 1) => ({
  id,
  userId,
  path: `/content/${id}.md`,
  date: "d",
  at,
});

Deno.test("putSchedule() delays the message by the injected clock and the run happens once", async () => {
  const kv = await Deno.openKv(":memory:");
  // The clock says the publish time is 150 ms away, although in real time it is a year ahead.
  const at = Date.now() + 365 * 24 * HOUR;
  const clock = fakeClock(at - 150);
  const { act, calls } = countingAct();
  const store = { kv, now: clock.now, act };
  try {
    const q = listen(kv, store);
    const s = await putSchedule(store, input("a", at));
    assert.equal(s.state, "scheduled");
    assert.equal(s.version, 1);
    const [run] = await q.next(1);
    assert.equal(run?.state, "published");
    assert.equal(calls.length, 1);
    assert.equal((await findSchedule(kv, "a"))?.state, "published");
  } finally {
    kv.close();
  }
});

Deno.test("a rescheduled or cancelled schedule ignores its stale messages", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = fakeClock(1_000_000);
  const { act, calls } = countingAct();
  const store = { kv, now: clock.now, act };
  try {
    const q = listen(kv, store);
    await putSchedule(store, input("r", clock.now() + 50));
    const second = await putSchedule(store, { ...input("r", clock.now() + 300), date: "later" });
    assert.equal(second.version, 2);
    await putSchedule(store, input("c", clock.now() + 50));
    const cancelled = await cancelSchedule(store, "c", 1);
    assert.equal(cancelled.state, "cancelled");
    const runs = await q.next(3);
    assert.equal(runs.filter((r) => r !== null).length, 1);
    assert.equal(calls.length, 1);
    assert.equal(calls[0].date, "later");
    assert.equal(calls[0].version, 2);
    assert.equal((await findSchedule(kv, "c"))?.state, "cancelled");
  } finally {
    kv.close();
  }
});

Deno.test("runScheduleMessage() re-queues an early message, even months early, without running it", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = fakeClock(1_000_000);
  const { act, calls } = countingAct();
  const store = { kv, now: clock.now, act };
  try {
    const s = await putSchedule(store, input("e", clock.now() + 90 * 24 * HOUR));
    const message: PublishMessage = { kind: "publish", id: "e", version: s.version };
    // 90 days is beyond KV's 30-day delay limit: the hop must be clamped (KV would throw otherwise).
    assert.equal(await runScheduleMessage(store, message), null);
    assert.equal(calls.length, 0);
    assert.equal((await findSchedule(kv, "e"))?.state, "scheduled");
    clock.set(s.at);
    assert.equal((await runScheduleMessage(store, message))?.state, "published");
    assert.equal(await runScheduleMessage(store, message), null, "a second delivery does nothing");
    assert.equal(calls.length, 1);
  } finally {
    kv.close();
  }
});

Deno.test("two instances on one KV file run a schedule exactly once (atomic check-and-mark)", async () => {
  const dir = await Deno.makeTempDir();
  const kvs = await Promise.all([Deno.openKv(`${dir}/kv`), Deno.openKv(`${dir}/kv`)]);
  try {
    const clock = fakeClock(1_000_000);
    const { act, calls } = countingAct();
    const s = await putSchedule({ kv: kvs[0], now: clock.now }, input("x", clock.now()));
    const message: PublishMessage = { kind: "publish", id: "x", version: s.version };
    // Both instances get the message several times at once (KV delivers at least once).
    const runs = await Promise.all(
      Array.from(
        { length: 8 },
        (_, i) => runScheduleMessage({ kv: kvs[i % 2], now: clock.now, act }, message),
      ),
    );
    assert.equal(runs.filter((r) => r !== null).length, 1);
    assert.equal(calls.length, 1);
  } finally {
    kvs.forEach((kv) => kv.close());
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("executeSchedule() records failures and keeps the build log for its owner only", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = fakeClock(5_000);
  try {
    const failing: PublishAct = () => Promise.reject(new BadRequestError("x", { code: "no_front_matter" }));
    const s1 = await putSchedule({ kv, now: clock.now }, input("f", 5_000), { state: "running" });
    const f = await executeSchedule({ kv, now: clock.now, act: failing }, s1);
    assert.deepEqual([f.state, f.error, f.hasLog], ["failed", "no_front_matter", false]);

    const output = "x".repeat(MAX_LOG_CHARS) + "the end\n";
    const building: PublishAct = () => Promise.resolve({ build: { code: 2, output } });
    const s2 = await putSchedule({ kv, now: clock.now }, input("b", 5_000, 7), { state: "running" });
    const b = await executeSchedule({ kv, now: clock.now, act: building }, s2);
    assert.deepEqual([b.state, b.error, b.buildCode, b.hasLog], ["failed", "build_failed", 2, true]);
    const buildLog = await getBuildLog(kv, "b", 7);
    assert.equal(buildLog.code, 2);
    assert.ok(buildLog.output.endsWith("the end\n") && buildLog.output.length < MAX_LOG_CHARS + 10);
    await assert.rejects(getBuildLog(kv, "b", 1), { status: 404 });
    await assert.rejects(getBuildLog(kv, "f", 1), { status: 404 });
  } finally {
    kv.close();
  }
});

Deno.test("cancelSchedule() only cancels the owner's pending schedule; listSchedules() lists the owner's", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = fakeClock(1_000);
  const store = { kv, now: clock.now };
  try {
    await putSchedule(store, input("late", 9_000));
    await putSchedule(store, input("soon", 5_000));
    await putSchedule(store, input("other", 2_000, 2));
    await putSchedule(store, input("gone", 3_000));
    await cancelSchedule(store, "gone", 1);
    await assert.rejects(cancelSchedule(store, "late", 2), { status: 404 });
    await assert.rejects(cancelSchedule(store, "gone", 1), { status: 404 });
    await assert.rejects(cancelSchedule(store, "nope", 1), { status: 404 });
    assert.deepEqual((await listSchedules(kv, 1)).map((s) => s.id), ["soon", "late"]);
    const running = await putSchedule(store, input("run", 1_000), { state: "running" });
    await assert.rejects(cancelSchedule(store, running.id, 1), { status: 409 });
  } finally {
    kv.close();
  }
});

Deno.test("scheduleIdOf() is stable per path and differs between paths", async () => {
  assert.equal(await scheduleIdOf("/a/b.md"), await scheduleIdOf("/a/b.md"));
  assert.notEqual(await scheduleIdOf("/a/b.md"), await scheduleIdOf("/a/c.md"));
  assert.match(await scheduleIdOf("/x"), /^[0-9a-f]{32}$/);
  assert.equal(isPublishMessage({ kind: "publish", id: "a", version: 1 }), true);
  assert.equal(isPublishMessage({ kind: "other", id: "a", version: 1 }), false);
  assert.equal(isPublishMessage(null), false);
});
