import assert from "node:assert/strict";
import { makeTree, withTempRoot } from "../../fs/_testing.ts";
import { RequestActivity } from "../../request_activity.ts";
import { parseSearchQuery } from "../mod.ts";
import { SearchIndex } from "./mod.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The index's hits for `raw` below the root, as paths. */
function relsOf(index: SearchIndex, raw: string): string[] {
  const q = parseSearchQuery(raw);
  return [...index.query("", q) ?? []].flat().map((h) => (h.parent ? `${h.parent}/${h.name}` : h.name));
}

Deno.test("SearchIndex's first walk waits while a request is in flight, then completes", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "a/one.txt": "", "b/two.txt": "" });
    const activity = new RequestActivity({ holdMs: 60_000 });
    const index = new SearchIndex(root, { watch: false, reconcileMs: 0, pause: () => activity.whenIdle() });
    try {
      const done = activity.begin();
      let ready = false;
      const started = index.start().then(() => (ready = true));
      for (let i = 0; i < 20; i++) await sleep(5);
      assert.equal(ready, false, "the walk holds while the request is in flight");
      done();
      await started;
      assert.deepEqual(relsOf(index, "txt"), ["a/one.txt", "b/two.txt"]);
    } finally {
      await index.close();
    }
  });
});

Deno.test("SearchIndex reads a changed folder after its delay, once no request is in flight", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "x/old.txt": "" });
    const activity = new RequestActivity({ holdMs: 60_000 });
    const index = new SearchIndex(root, { reconcileMs: 0, debounceMs: 20, pause: () => activity.whenIdle() });
    try {
      await index.start();
      await index.settle(); // the reconciliation after the watch is registered
      const done = activity.begin();
      await makeTree(root, { "x/new.txt": "" });
      // Long past the debounce (the event usually arrives within milliseconds): still held by the request.
      await sleep(300);
      assert.deepEqual(relsOf(index, "txt"), ["x/old.txt"]);
      done();
      // Generous deadline: events arrive when the loaded machine gets to them; no timing is asserted.
      for (let i = 0; i < 200 && relsOf(index, "txt").length < 2; i++) await sleep(25);
      assert.deepEqual(relsOf(index, "txt"), ["x/new.txt", "x/old.txt"]);
    } finally {
      await index.close();
    }
  });
});

Deno.test("SearchIndex watches a tree with more entries than inlineWatchEntries from a worker", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "a.txt": "", "b.txt": "", "c.txt": "" });
    for (const [limit, where] of [[10, "thread"], [2, "worker"]] as const) {
      const index = new SearchIndex(root, { reconcileMs: 0, inlineWatchEntries: limit });
      try {
        await index.start();
        assert.equal(index.stats().watcher, where);
      } finally {
        await index.close();
      }
    }
  });
});

Deno.test("SearchIndex.close() ends a step waiting for requests at once, without an error, and saves no partial tree", async () => {
  await withTempRoot(async ({ root, dir }) => {
    await makeTree(root, { "a/one.txt": "", "b/two.txt": "" });
    const activity = new RequestActivity({ holdMs: 600_000 });
    const snapshot = `${dir}/index.snapshot`;
    const index = new SearchIndex(root, { reconcileMs: 0, snapshot, pause: () => activity.whenIdle() });
    const errors: unknown[] = [];
    activity.begin(); // a request that never ends: the walk waits for it
    const started = index.start().catch((err) => errors.push(err));
    await sleep(20);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const closed = await Promise.race([
      index.close().then(() => "closed"),
      new Promise((r) => timer = setTimeout(() => r("still waiting after 30 s"), 30_000)),
    ]);
    clearTimeout(timer);
    assert.equal(closed, "closed");
    await started;
    assert.deepEqual(errors, []);
    assert.equal(index.ready, false);
    await assert.rejects(Deno.stat(snapshot), Deno.errors.NotFound);
  });
});
