import assert from "node:assert/strict";
import { RequestActivity } from "./request_activity.ts";

/** Resolves to "done" if `p` settles within a few turns of the event loop, else "pending". */
async function state(p: Promise<void>): Promise<"done" | "pending"> {
  let done = false;
  p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  return done ? "done" : "pending";
}

Deno.test("RequestActivity.whenIdle() is null without requests in flight", () => {
  const activity = new RequestActivity({ quietMs: 0 });
  assert.equal(activity.whenIdle(), null);
  const done = activity.begin();
  assert.equal(activity.inFlight, 1);
  assert.ok(activity.whenIdle() !== null);
  done();
  done(); // twice counts once
  assert.equal(activity.inFlight, 0);
  assert.equal(activity.whenIdle(), null);
});

Deno.test("RequestActivity.whenIdle() waits until the last request in flight has ended", async () => {
  const activity = new RequestActivity({ holdMs: 60_000, quietMs: 0 });
  const first = activity.begin();
  const second = activity.begin();
  const idle = activity.whenIdle();
  assert.ok(idle !== null);
  first();
  assert.equal(await state(idle), "pending", "one request is still in flight");
  second();
  assert.equal(await state(idle), "done");
  assert.equal(activity.whenIdle(), null);
});

Deno.test("RequestActivity.whenIdle() waits for quietMs after the last request (the next of a burst)", async () => {
  let now = 0;
  const activity = new RequestActivity({ holdMs: 60_000, quietMs: 100, now: () => now });
  activity.begin()();
  const idle = activity.whenIdle();
  assert.ok(idle !== null);
  now = 50;
  // The next request of the burst arrives within the quiet time and holds the work again.
  const next = activity.begin();
  assert.equal(await state(idle), "pending");
  now = 60;
  next();
  assert.equal(await state(idle), "pending", "quiet for 0 of 100 ms");
  now = 160;
  assert.equal(activity.whenIdle(), null);
  await idle; // its timer (armed for the real 100 ms) wakes it
});

Deno.test("RequestActivity lets background work go on once a request has held it for holdMs", async () => {
  let now = 0;
  const activity = new RequestActivity({ holdMs: 1_000, quietMs: 0, now: () => now });
  const slow = activity.begin();
  now = 500;
  const idle = activity.whenIdle();
  assert.ok(idle !== null);
  assert.equal(await state(idle), "pending");
  now = 1_000;
  assert.equal(activity.whenIdle(), null, "a request older than holdMs no longer holds");
  // A request that starts later holds again, the old one does not.
  const fresh = activity.begin();
  assert.ok(activity.whenIdle() !== null);
  fresh();
  assert.equal(activity.whenIdle(), null);
  slow();
  await idle;
});

Deno.test("RequestActivity lets work that waited holdMs go on under a steady stream of requests", async () => {
  let now = 0;
  const activity = new RequestActivity({ holdMs: 1_000, quietMs: 100, now: () => now });
  let idle: Promise<void> | null = null;
  let done = false;
  // A new request every 50 ms, each ending before the next: never 100 ms of quiet.
  for (; now < 1_500; now += 50) {
    const end = activity.begin();
    if (idle === null) {
      idle = activity.whenIdle();
      idle!.then(() => (done = true));
    }
    end();
    await new Promise((r) => setTimeout(r, 0));
    if (done) break;
  }
  assert.equal(done, true, "resolved once it had waited holdMs");
  assert.ok(now >= 1_000 && now < 1_500, `at ${now}`);
  // A short grant follows: the next steps go on without waiting.
  activity.begin()();
  assert.equal(activity.whenIdle(), null);
});

Deno.test("RequestActivity.defer() holds background work for that long, as after a request", async () => {
  let now = 0;
  const activity = new RequestActivity({ quietMs: 100, now: () => now });
  activity.defer(1_000);
  const idle = activity.whenIdle();
  assert.ok(idle !== null);
  now = 999;
  assert.ok(activity.whenIdle() !== null);
  now = 1_000;
  assert.equal(activity.whenIdle(), null);
  activity.begin()(); // wakes the waiter: its time has come
  now = 1_100;
  await idle;
});
