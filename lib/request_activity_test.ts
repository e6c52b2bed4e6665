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
  const activity = new RequestActivity();
  assert.equal(activity.whenIdle(), null);
  const done = activity.begin();
  assert.equal(activity.inFlight, 1);
  done();
  done(); // twice counts once
  assert.equal(activity.inFlight, 0);
  assert.equal(activity.whenIdle(), null);
});

Deno.test("RequestActivity.whenIdle() waits until the last request in flight has ended", async () => {
  const activity = new RequestActivity({ holdMs: 60_000 });
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

Deno.test("RequestActivity lets background work go on once a request has held it for holdMs", async () => {
  let now = 0;
  const activity = new RequestActivity({ holdMs: 1_000, now: () => now });
  const slow = activity.begin();
  now = 500;
  const idle = activity.whenIdle();
  assert.ok(idle !== null);
  assert.equal(await state(idle), "pending");
  now = 1_000;
  // The clock is fake, the timer real: it fires at once (500 ms were left when it was armed, now none).
  const after = activity.whenIdle();
  assert.equal(after, null, "a request older than holdMs no longer holds");
  // A request that starts later holds again, the old one does not.
  const fresh = activity.begin();
  assert.ok(activity.whenIdle() !== null);
  fresh();
  assert.equal(activity.whenIdle(), null);
  slow();
  await idle;
});
