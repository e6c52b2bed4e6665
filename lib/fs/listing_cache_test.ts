import assert from "node:assert/strict";
import type { Resource } from "../types.ts";
import { type GateContext, resolveScoped } from "./gate.ts";
import { ListingCache } from "./listing_cache.ts";
import { getResourceJson } from "./resources.ts";
import { ctxFor, pathRule, withTempRoot } from "./_testing.ts";

const OPTS = { sorting: { by: "name", asc: false }, readHeaders: true };

async function list(ctx: GateContext, vpath: string, cache?: ListingCache): Promise<Resource> {
  const r = await getResourceJson(ctx, vpath, { ...OPTS, listings: cache });
  return JSON.parse(joined(r.json));
}

/** The text of a chunked JSON answer. */
function joined(chunks: Uint8Array[] | undefined): string {
  const decoder = new TextDecoder();
  return chunks!.map((c) => decoder.decode(c, { stream: true })).join("") + decoder.decode();
}

function summary(r: Resource): string[] {
  return r.items!.map((i) => `${i.name} ${i.size} ${i.modified} ${i.mode}`);
}

/** Past the window in which a folder's mtime cannot tell a later change apart. */
function settle(): Promise<void> {
  return new Promise((r) => setTimeout(r, 120));
}

/** Lists through the cache until it equals a fresh read (or 3 s pass); returns how many tries it took. */
async function converges(ctx: GateContext, vpath: string, cache: ListingCache): Promise<number> {
  const want = summary(await list(ctx, vpath));
  for (let tries = 1; tries <= 150; tries++) {
    const got = summary(await list(ctx, vpath, cache));
    if (JSON.stringify(got) === JSON.stringify(want)) return tries;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.deepEqual(summary(await list(ctx, vpath, cache)), want, "the cached listing never caught up");
  return -1;
}

/** Inode numbers of the folders below `root` (itself included). */
function folderInodes(root: string): Set<number> {
  const out = new Set<number>();
  const walk = (dir: string) => {
    out.add(Deno.statSync(dir).ino!);
    for (const e of Deno.readDirSync(dir)) if (e.isDirectory) walk(`${dir}/${e.name}`);
  };
  walk(root);
  return out;
}

/**
 * Kernel inotify watches of this process on folders below `root` (lib/fs/watch.ts shares one inotify instance
 * between watchers). Watches of other tests in the same process (search index, folder sizes) are not counted.
 */
function watchCount(root: string): number {
  const inodes = folderInodes(root);
  let n = 0;
  for (const e of Deno.readDirSync("/proc/self/fd")) {
    try {
      if (!Deno.readLinkSync(`/proc/self/fd/${e.name}`).includes("inotify")) continue;
      const info = Deno.readTextFileSync(`/proc/self/fdinfo/${e.name}`);
      for (const line of info.split("\n")) {
        const ino = line.startsWith("inotify wd:") ? line.match(/ ino:([0-9a-f]+)/) : null;
        if (ino && inodes.has(parseInt(ino[1], 16))) n++;
      }
    } catch {
      // The fd of the directory listing itself is gone already.
    }
  }
  return n;
}

/** Waits (bounded) until this many watches exist below `root`, then asserts it. */
async function expectWatches(root: string, n: number, message?: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (watchCount(root) !== n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(watchCount(root), n, message);
}

/** Lets a closed watcher's end run (its kernel watch is removed at once). */
async function watchesSettle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 30));
}

/** Lists twice with a pause between, so the second read is not "racy" and stays cached. */
async function warm(ctx: GateContext, vpath: string, cache: ListingCache): Promise<void> {
  await list(ctx, vpath, cache);
  await settle();
  await list(ctx, vpath, cache);
}

async function fill(dir: string, count: number, prefix = "f"): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  for (let i = 0; i < count; i++) await Deno.writeTextFile(`${dir}/${prefix}${i}.txt`, "x");
}

Deno.test("ListingCache reflects files created, deleted, renamed and modified right after the change", async () => {
  await withTempRoot(async ({ root }) => {
    await fill(`${root}/d`, 5);
    const ctx = ctxFor(root);
    const cache = new ListingCache({ minEntries: 0 });
    try {
      await warm(ctx, "/d", cache);
      const hits = cache.stats().hits;
      await list(ctx, "/d", cache);
      assert.equal(cache.stats().hits, hits + 1, "served from the cache");
      const changes: [string, () => Promise<void>][] = [
        ["create", () => Deno.writeTextFile(`${root}/d/new.txt`, "n")],
        ["delete", () => Deno.remove(`${root}/d/f1.txt`)],
        ["rename", () => Deno.rename(`${root}/d/f2.txt`, `${root}/d/g2.txt`)],
        ["grow", () => Deno.writeTextFile(`${root}/d/f3.txt`, "more content", { append: true })],
        ["touch", () => Deno.utime(`${root}/d/f4.txt`, 1_000_000, 1_000_000.25)],
        ["chmod", () => Deno.chmod(`${root}/d/f0.txt`, 0o600)],
        ["mkdir", () => Deno.mkdir(`${root}/d/sub`)],
      ];
      for (const [label, change] of changes) {
        await warm(ctx, "/d", cache);
        const hits = cache.stats().hits;
        await list(ctx, "/d", cache);
        assert.equal(cache.stats().hits, hits + 1, `${label}: served from the cache before the change`);
        await change();
        const tries = await converges(ctx, "/d", cache);
        assert.ok(tries > 0, label);
      }
      const names = (await list(ctx, "/d", cache)).items!.map((i) => i.name);
      assert.deepEqual(names, ["sub", "f0.txt", "f3.txt", "f4.txt", "g2.txt", "new.txt"]);
      const f3 = (await list(ctx, "/d", cache)).items!.find((i) => i.name === "f3.txt")!;
      assert.equal(f3.size, 13);
    } finally {
      await cache.close();
    }
  });
});

Deno.test("ListingCache sees a new file at once through the folder's mtime, before any watcher event", async () => {
  await withTempRoot(async ({ root }) => {
    await fill(`${root}/d`, 3);
    const ctx = ctxFor(root);
    const cache = new ListingCache({ minEntries: 0 });
    try {
      await warm(ctx, "/d", cache);
      const dir = await resolveScoped(ctx, "/d", "read");
      const hits = cache.stats().hits;
      assert.ok(!(await cache.snapshot(dir, OPTS)).names.includes("zz.txt"));
      assert.equal(cache.stats().hits, hits + 1);
      // No await between the change and the lookup's stat: the watcher cannot have delivered its event.
      Deno.writeTextFileSync(`${root}/d/zz.txt`, "z");
      const snap = cache.snapshot(dir, OPTS);
      assert.equal(cache.stats().hits, hits + 1, "not served from the cache");
      assert.ok((await snap).names.includes("zz.txt"));
    } finally {
      await cache.close();
    }
  });
});

Deno.test("ListingCache refreshes sub-folders, whose mtime moves without an event in the parent", async () => {
  await withTempRoot(async ({ root }) => {
    await fill(`${root}/d/old`, 1);
    await fill(`${root}/d/new`, 1);
    await fill(`${root}/d`, 2);
    await Deno.utime(`${root}/d/old`, 1000, 1000);
    await Deno.utime(`${root}/d/new`, 2000, 2000);
    const ctx = ctxFor(root);
    const cache = new ListingCache({ minEntries: 0 });
    const sortings = [{ by: "modified", asc: false }, { by: "name", asc: false }, { by: "size", asc: true }];
    const json = async (sorting: { by: string; asc: boolean }, listings?: ListingCache) =>
      joined((await getResourceJson(ctx, "/d", { ...OPTS, sorting, listings })).json);
    try {
      await warm(ctx, "/d", cache);
      for (const sorting of sortings) assert.equal(await json(sorting, cache), await json(sorting));
      const hits = cache.stats().hits;
      // Only inside "old": its mtime becomes the newest, and nothing happens in "d" itself.
      Deno.writeTextFileSync(`${root}/d/old/inner.txt`, "i");
      for (const sorting of sortings) assert.equal(await json(sorting, cache), await json(sorting));
      assert.equal(cache.stats().hits, hits + sortings.length, "still served from the cache");
      const first = JSON.parse(await json(sortings[0], cache)).items[0].name;
      assert.equal(first, "old");
    } finally {
      await cache.close();
    }
  });
});

Deno.test("ListingCache keeps watching a folder moved to another path", async () => {
  await withTempRoot(async ({ root }) => {
    await fill(`${root}/d`, 3);
    const ctx = ctxFor(root);
    // One folder at most: listing the new path evicts the old one, whose watcher is then closed. Had both
    // shared the folder's kernel watch, that would end the new path's watch too.
    const cache = new ListingCache({ minEntries: 0, maxDirs: 1 });
    try {
      await list(ctx, "/d", cache);
      await Deno.rename(`${root}/d`, `${root}/e`);
      await warm(ctx, "/e", cache);
      await new Promise((r) => setTimeout(r, 30));
      await list(ctx, "/e", cache);
      assert.equal(cache.stats().dirs, 1);
      await Deno.writeTextFile(`${root}/e/f0.txt`, "changed in place");
      assert.ok(await converges(ctx, "/e", cache) > 0);
    } finally {
      await cache.close();
    }
  });
});

Deno.test("ListingCache reads a folder again once its snapshot is maxAgeMs old", async () => {
  await withTempRoot(async ({ root }) => {
    await fill(`${root}/d`, 3);
    const ctx = ctxFor(root);
    const cache = new ListingCache({ minEntries: 0, maxAgeMs: 300 });
    try {
      await warm(ctx, "/d", cache);
      const { hits, misses } = cache.stats();
      await list(ctx, "/d", cache);
      assert.equal(cache.stats().hits, hits + 1);
      await new Promise((r) => setTimeout(r, 350));
      await list(ctx, "/d", cache);
      assert.equal(cache.stats().misses, misses + 1);
    } finally {
      await cache.close();
    }
  });
});

Deno.test("ListingCache gives each user their own view of one cached folder", async () => {
  await withTempRoot(async ({ root }) => {
    await fill(`${root}/d`, 3);
    await Deno.writeTextFile(`${root}/d/.env`, "dot");
    await Deno.writeTextFile(`${root}/d/secret.txt`, "s");
    const admin = ctxFor(root);
    const user = ctxFor(root, { hideDotfiles: true, rules: [pathRule("/d/secret.txt")] });
    const scoped = ctxFor(root, { scope: "/d", rules: [pathRule("/f0.txt")] });
    const cache = new ListingCache({ minEntries: 0 });
    try {
      await warm(admin, "/d", cache);
      for (let round = 0; round < 2; round++) {
        const a = (await list(admin, "/d", cache)).items!.map((i) => i.name);
        const u = (await list(user, "/d", cache)).items!.map((i) => i.name);
        const s = await list(scoped, "/", cache);
        assert.deepEqual(a, [".env", "f0.txt", "f1.txt", "f2.txt", "secret.txt"]);
        assert.deepEqual(u, ["f0.txt", "f1.txt", "f2.txt"]);
        assert.deepEqual(s.items!.map((i) => i.path), ["/.env", "/f1.txt", "/f2.txt", "/secret.txt"]);
      }
      const stats = cache.stats();
      assert.equal(stats.dirs, 1);
      assert.ok(stats.hits >= 6, JSON.stringify(stats));
    } finally {
      await cache.close();
    }
  });
});

Deno.test("ListingCache keeps to its bounds and closes the watchers it lets go", async () => {
  await withTempRoot(async ({ root }) => {
    for (const d of ["a", "b", "c"]) await fill(`${root}/${d}`, 30);
    await fill(`${root}/big`, 60);
    await fill(`${root}/small`, 3);
    const ctx = ctxFor(root);
    const cache = new ListingCache({ maxDirs: 2, maxEntries: 50, minEntries: 10 });
    try {
      await list(ctx, "/a", cache);
      await list(ctx, "/b", cache);
      assert.equal(cache.stats().entries, 30, "a + b would pass 50 entries");
      await expectWatches(root, 1, "a, evicted for b, keeps no watch");
      await list(ctx, "/c", cache);
      await list(ctx, "/c", cache);
      await watchesSettle();
      assert.equal(cache.stats().dirs, 1);
      await expectWatches(root, 1, "evicted folders' watchers are closed");
      await list(ctx, "/big", cache);
      await list(ctx, "/small", cache);
      await list(ctx, "/small", cache);
      await watchesSettle();
      await expectWatches(root, 1, "too big and too small folders keep no watcher");
      assert.equal(cache.stats().entries, 30);
      await cache.close();
      await expectWatches(root, 0, "close() closes every watcher");
      assert.equal((await list(ctx, "/a", cache)).numFiles, 30, "a closed cache still lists");
      await expectWatches(root, 0);
    } finally {
      await cache.close();
    }
  });
});

Deno.test("ListingCache keeps at most maxDirs folders", async () => {
  await withTempRoot(async ({ root }) => {
    for (const d of ["a", "b", "c"]) await fill(`${root}/${d}`, 3);
    const ctx = ctxFor(root);
    const cache = new ListingCache({ maxDirs: 2, minEntries: 0 });
    try {
      for (const d of ["/a", "/b", "/c", "/a"]) await list(ctx, d, cache);
      await watchesSettle();
      assert.equal(cache.stats().watchers, 2);
      await expectWatches(root, 2);
    } finally {
      await cache.close();
    }
  });
});

Deno.test("ListingCache follows a folder replaced by another one at the same path", async () => {
  await withTempRoot(async ({ root }) => {
    await fill(`${root}/d`, 3);
    const ctx = ctxFor(root);
    const cache = new ListingCache({ minEntries: 0 });
    try {
      await list(ctx, "/d", cache);
      await Deno.rename(`${root}/d`, `${root}/old`);
      await fill(`${root}/d`, 2, "new");
      assert.deepEqual((await list(ctx, "/d", cache)).items!.map((i) => i.name), ["new0.txt", "new1.txt"]);
      // The new folder is watched: an in-place change shows up.
      await settle();
      await list(ctx, "/d", cache);
      await Deno.writeTextFile(`${root}/d/new0.txt`, "longer now");
      assert.ok(await converges(ctx, "/d", cache) > 0);
      // Changes in the old folder no longer matter.
      await Deno.writeTextFile(`${root}/old/f0.txt`, "elsewhere");
      assert.equal((await list(ctx, "/d", cache)).numFiles, 2);
    } finally {
      await cache.close();
    }
  });
});

/** Waits (bounded) until the watchers saw a new file-system event: no fixed sleep on a loaded machine. */
async function invalidated(cache: ListingCache, before: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (cache.stats().events <= before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(cache.stats().events > before, "the change event arrived");
  // Events of one write come in a burst (modify, close): let it end before the next step.
  await new Promise((r) => setTimeout(r, 50));
}

Deno.test("ListingCache shares one read between requests that arrive while it runs", async () => {
  await withTempRoot(async ({ root }) => {
    await fill(`${root}/d`, 20);
    const ctx = ctxFor(root);
    const cache = new ListingCache({ minEntries: 0 });
    try {
      await warm(ctx, "/d", cache);
      const dir = await resolveScoped(ctx, "/d", "read");
      // An event that cannot be patched (on the folder itself) forces a new read; then ask three times at once.
      const seen = cache.stats().events;
      await Deno.writeTextFile(`${root}/d/f1.txt`, "changed too");
      await Deno.chmod(`${root}/d`, 0o750);
      await invalidated(cache, seen);
      const { joined, misses } = cache.stats();
      const all = await Promise.all([1, 2, 3].map(() => cache.snapshot(dir, OPTS)));
      assert.equal(cache.stats().misses, misses + 3, JSON.stringify(cache.stats()));
      assert.equal(cache.stats().joined, joined + 2, JSON.stringify(cache.stats()));
      assert.ok(all[0] === all[1] && all[1] === all[2]);
      assert.equal(all[0].sizes[all[0].names.indexOf("f1.txt")], 11);
      // A request arriving after a change does not join a read that began before it.
      const seen2 = cache.stats().events;
      await Deno.writeTextFile(`${root}/d/f2.txt`, "changed as well");
      await Deno.chmod(`${root}/d`, 0o755);
      await invalidated(cache, seen2);
      const first = cache.snapshot(dir, OPTS);
      Deno.writeTextFileSync(`${root}/d/new.txt`, "n");
      const second = await cache.snapshot(dir, OPTS);
      // Whether the first read saw new.txt depends on when its (async) readdir ran; the second must see it, and
      // must not have joined the first.
      await first;
      assert.ok(second.names.includes("new.txt"));
      assert.equal(cache.stats().joined, joined + 2);
    } finally {
      await cache.close();
    }
  });
});
