import assert from "node:assert/strict";
import { exitOnSignals, withinMs } from "./shutdown.ts";

/** Raises SIGUSR2 in this process and waits until `exits` has `n` codes. */
async function signalUntil(exits: number[], n: number): Promise<void> {
  Deno.kill(Deno.pid, "SIGUSR2");
  const deadline = Date.now() + 5000;
  while (exits.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

Deno.test("exitOnSignals() runs the stop once and exits 0 when it ends", async () => {
  const exits: number[] = [];
  let stops = 0;
  const remove = exitOnSignals(() => {
    stops++;
    return Promise.resolve();
  }, { signals: ["SIGUSR2"], exit: (code) => exits.push(code) });
  try {
    await signalUntil(exits, 1);
    assert.deepEqual([stops, exits], [1, [0]]);
  } finally {
    remove();
  }
});

Deno.test("exitOnSignals() exits 1 at the deadline when the stop hangs, and at once on a second signal", async () => {
  for (const second of [false, true]) {
    const exits: number[] = [];
    let stopping = false;
    const started = Date.now();
    const remove = exitOnSignals(() => {
      stopping = true;
      return new Promise(() => {});
    }, {
      signals: ["SIGUSR2"],
      exit: (code) => exits.push(code),
      deadlineMs: second ? 60_000 : 200,
    });
    try {
      await signalUntil(exits, second ? 0 : 1);
      if (second) {
        // Two signals sent at once may arrive as one: the second goes once the first is being handled.
        while (!stopping && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 10));
        await signalUntil(exits, 1);
      }
      assert.deepEqual(exits, [1]);
      assert.ok(Date.now() - started < 5000);
    } finally {
      remove();
    }
  }
});

Deno.test("withinMs() tells whether the work ended in time, and a failure counts as ended", async () => {
  assert.equal(await withinMs(Promise.resolve(), 1000), true);
  assert.equal(await withinMs(Promise.reject(new Error("no")), 1000), true);
  assert.equal(await withinMs(new Promise(() => {}), 20), false);
});
