import assert from "node:assert/strict";
import type { GateContext } from "./gate.ts";
import { ListingCache, type ListingCacheOptions } from "./listing_cache.ts";
import { IdleTimer, RELEASE_GC, releaseMemory } from "./listing_memory.ts";
import { withGcStub } from "../_young_gc_testing.ts";
import { getResourceJson } from "./resources.ts";
import { ctxFor, withTempRoot } from "./_testing.ts";

const OPTS = { sorting: { by: "name", asc: true }, readHeaders: false };

async function list(ctx: GateContext, vpath: string, cache: ListingCache): Promise<number> {
  const r = await getResourceJson(ctx, vpath, { ...OPTS, listings: cache });
  return JSON.parse(await new Blob(r.json).text()).numFiles;
}

/** Folders of `count` files with names of equal length (so every folder costs the same bytes). */
async function folders(root: string, names: string[], count: number): Promise<void> {
  for (const d of names) {
    await Deno.mkdir(`${root}/${d}`);
    for (let i = 0; i < count; i++) await Deno.writeTextFile(`${root}/${d}/f${1000 + i}.txt`, "x");
  }
  // Past the window in which a folder's mtime cannot tell later changes apart (it would not be served).
  await new Promise((r) => setTimeout(r, 120));
}

/** Runs `fn` with a cache, closing it after. */
async function withCache(
  options: ListingCacheOptions,
  fn: (c: ListingCache) => Promise<void>,
): Promise<void> {
  const cache = new ListingCache({ minEntries: 0, idleMs: 0, ...options });
  try {
    await fn(cache);
  } finally {
    await cache.close();
  }
}

/** Bytes one folder of the test costs with one rendering kept. */
async function folderBytes(ctx: GateContext): Promise<{ bare: number; rendered: number }> {
  let bare = 0, rendered = 0;
  await withCache({}, async (cache) => {
    await list(ctx, "/a", cache);
    bare = cache.stats().bytes;
    await list(ctx, "/a", cache);
    rendered = cache.stats().bytes;
  });
  return { bare, rendered };
}

/** True when listing `vpath` was served from the cache. */
async function isHit(ctx: GateContext, vpath: string, cache: ListingCache): Promise<boolean> {
  const before = cache.stats().hits;
  await list(ctx, vpath, cache);
  return cache.stats().hits === before + 1;
}

Deno.test("ListingCache counts snapshots and renderings in bytes", async () => {
  await withTempRoot(async ({ root }) => {
    await folders(root, ["a"], 50);
    const { bare, rendered } = await folderBytes(ctxFor(root));
    assert.ok(bare > 50 * 100, `a 50-entry snapshot is counted (${bare} bytes)`);
    assert.ok(rendered > bare, "a kept rendering adds to it");
  });
});

Deno.test("ListingCache evicts the least recently used folder when over maxBytes", async () => {
  await withTempRoot(async ({ root }) => {
    await folders(root, ["a", "b", "c"], 50);
    const ctx = ctxFor(root);
    const { rendered } = await folderBytes(ctx);
    await withCache({ maxBytes: Math.floor(rendered * 2.2) }, async (cache) => {
      for (const d of ["/a", "/a", "/b", "/b"]) await list(ctx, d, cache);
      assert.ok(await isHit(ctx, "/a", cache), "a is used last: b is now the least recent");
      await list(ctx, "/c", cache);
      assert.ok(cache.stats().bytes <= rendered * 2.2, `within budget: ${cache.stats().bytes}`);
      assert.equal(cache.stats().dirs, 2);
      assert.ok(await isHit(ctx, "/a", cache), "the recently used folder stays");
      assert.ok(await isHit(ctx, "/c", cache), "the new folder stays");
      assert.ok(!(await isHit(ctx, "/b", cache)), "the least recently used folder went");
    });
  });
});

Deno.test("ListingCache keeps a folder over maxBytes with its renderings only without them, or not at all", async () => {
  await withTempRoot(async ({ root }) => {
    await folders(root, ["a"], 50);
    const ctx = ctxFor(root);
    const { bare, rendered } = await folderBytes(ctx);
    await withCache({ maxBytes: Math.floor((bare + rendered) / 2) }, async (cache) => {
      for (let i = 0; i < 3; i++) assert.equal(await list(ctx, "/a", cache), 50);
      assert.ok(await isHit(ctx, "/a", cache), "the snapshot is kept");
      assert.ok(cache.stats().bytes < rendered, "its renderings are not");
    });
    await withCache({ maxBytes: Math.floor(bare / 2) }, async (cache) => {
      for (let i = 0; i < 2; i++) assert.equal(await list(ctx, "/a", cache), 50);
      assert.deepEqual([cache.stats().dirs, cache.stats().bytes, cache.stats().hits], [0, 0, 0]);
    });
  });
});

Deno.test("ListingCache drops everything once idle and runs its idle hook", async () => {
  await withTempRoot(async ({ root }) => {
    await folders(root, ["a", "b"], 20);
    const ctx = ctxFor(root);
    let idle!: () => void;
    const wentIdle = new Promise<void>((r) => idle = r);
    await withCache({ idleMs: 50, idleKeepBytes: 0, onIdle: () => idle() }, async (cache) => {
      await list(ctx, "/a", cache);
      await list(ctx, "/b", cache);
      assert.equal(cache.stats().dirs, 2);
      await wentIdle;
      const s = cache.stats();
      assert.deepEqual([s.dirs, s.watchers, s.bytes, s.entries, s.idleDrops], [0, 0, 0, 0, 1]);
      assert.equal(await list(ctx, "/a", cache), 20, "it lists (and caches) again after");
      assert.equal(cache.stats().dirs, 1);
    });
  });
});

Deno.test("ListingCache keeps its smallest folders within idleKeepBytes when idle", async () => {
  await withTempRoot(async ({ root }) => {
    await folders(root, ["a"], 50);
    await Deno.mkdir(`${root}/big`);
    for (let i = 0; i < 200; i++) await Deno.writeTextFile(`${root}/big/f${1000 + i}.txt`, "x");
    await new Promise((r) => setTimeout(r, 120));
    const ctx = ctxFor(root);
    const { rendered } = await folderBytes(ctx);
    let idle!: () => void;
    const wentIdle = new Promise<void>((r) => idle = r);
    await withCache({ idleMs: 50, idleKeepBytes: rendered + 1, onIdle: () => idle() }, async (cache) => {
      for (const d of ["/a", "/big", "/a", "/big"]) await list(ctx, d, cache);
      assert.ok(cache.stats().bytes > rendered * 2);
      await wentIdle;
      assert.equal(cache.stats().dirs, 1);
      assert.ok(cache.stats().bytes <= rendered + 1);
      assert.ok(await isHit(ctx, "/a", cache), "the small folder stays");
      assert.ok(!(await isHit(ctx, "/big", cache)), "the big one went");
    });
  });
});

Deno.test("IdleTimer waits for a quiet period after the last touch, and close() cancels it", async () => {
  let calls = 0;
  let done!: () => void;
  const fired = new Promise<void>((r) => done = r);
  const timer = new IdleTimer(30, () => {
    calls++;
    done();
  });
  // The timer does not keep the process alive; this interval does, until it fired.
  const alive = setInterval(() => {}, 1000);
  timer.touch();
  timer.arm();
  timer.arm(); // armed once
  await fired;
  clearInterval(alive);
  assert.equal(calls, 1);
  const closed = new IdleTimer(1, () => calls++);
  closed.arm();
  closed.close();
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(calls, 1, "a closed timer never fires");
});

Deno.test("releaseMemory runs where gc and malloc_trim are unavailable or available", () => {
  releaseMemory();
  releaseMemory();
});

Deno.test("releaseMemory asks V8 for its memory-reducing full collection (which shrinks the young generation)", async () => {
  await withGcStub((calls) => {
    releaseMemory();
    assert.deepEqual(calls, [{ type: "major", flavor: "last-resort" }]);
    assert.deepEqual(calls[0], RELEASE_GC);
  });
});
