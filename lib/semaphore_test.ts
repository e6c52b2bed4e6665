import assert from "node:assert/strict";
import { Semaphore } from "./semaphore.ts";

Deno.test("Semaphore runs at most `limit` jobs at once and serves waiters in order", async () => {
  const sem = new Semaphore(2);
  let running = 0, peak = 0;
  const order: number[] = [];
  const job = (i: number) => async () => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, 5));
    order.push(i);
    running--;
    return i;
  };
  const results = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => sem.run(job(i))));
  assert.deepEqual(results, [0, 1, 2, 3, 4, 5]);
  assert.equal(peak, 2);
  assert.equal(sem.active, 0);
});

Deno.test("Semaphore releases the slot of a job that throws", async () => {
  const sem = new Semaphore(1);
  await assert.rejects(sem.run(() => Promise.reject(new Error("boom"))), /boom/);
  assert.equal(await sem.run(() => Promise.resolve(7)), 7);
  assert.equal(sem.active, 0);
});
