import assert from "node:assert/strict";
import { resolveScoped } from "../fs/gate.ts";
import { ListingCache } from "../fs/listing_cache.ts";
import type { FsRequest } from "../fs/request.ts";
import { ctxFor, pathRule, withTempRoot } from "../fs/_testing.ts";
import type { DavContext } from "./context.ts";
import { patchDeadProps } from "./dead_props.ts";
import { createLock, realSegments } from "./locks.ts";
import { propfind } from "./propfind.ts";
import { MAX_ANSWERS_PER_FOLDER, MAX_KEPT_BYTES, PropfindCache } from "./propfind_cache.ts";
import type { DirSnapshot } from "../fs/listing_snapshot.ts";

const PROP = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:getlastmodified/>' +
  '<D:getcontentlength/><D:resourcetype/><D:displayname/><x:checksums xmlns:x="urn:x"/></D:prop></D:propfind>';

type Gate = ReturnType<typeof ctxFor>;

/** The cache of the tests' "app". */
const kept = new PropfindCache();

async function body(
  kv: Deno.Kv,
  gate: Gate,
  listings: ListingCache | undefined,
  xml?: string,
  propfindCache = kept,
) {
  const ctx: DavContext = {
    fs: { gate, user: gate.user } as unknown as FsRequest,
    kv,
    request: new Request("http://h/dav/d/", { method: "PROPFIND", headers: { Depth: "1" }, body: xml }),
    prefix: "/dav",
    vpath: "/d/",
    listings,
    propfindCache,
    now: () => Date.now(),
  };
  const res = await propfind(ctx);
  assert.equal(res.status, 207);
  return await res.text();
}

async function folder(root: string): Promise<void> {
  await Deno.mkdir(`${root}/d/sub & co`, { recursive: true });
  for (let i = 0; i < 1200; i++) Deno.writeTextFileSync(`${root}/d/f ${i}#&.txt`, "x".repeat(i % 5));
  // Past the window in which the folder's mtime cannot tell a later change apart.
  await new Promise((r) => setTimeout(r, 120));
}

Deno.test("PROPFIND Depth 1: kept answers are byte-identical to fresh ones and follow changes", async () => {
  await withTempRoot(async ({ root }) => {
    await folder(root);
    const kv = await Deno.openKv(":memory:");
    const cache = new ListingCache({ minEntries: 0 });
    const admin = ctxFor(root);
    const snapOf = async (gate: Gate) =>
      await cache.snapshot(await resolveScoped(gate, "/d", "read"), { readHeaders: false });
    try {
      for (const xml of [undefined, PROP]) {
        const fresh = await body(kv, admin, undefined, xml);
        assert.equal(fresh.match(/<response>/g)?.length, 1 + 1201);
        assert.equal(await body(kv, admin, cache, xml), fresh);
        assert.ok(kept.has(await snapOf(admin)));
        assert.equal(await body(kv, admin, cache, xml), fresh, "served from the kept answer");
      }
      // A rule change: another view of the same snapshot.
      const ruled = ctxFor(root, { rules: [pathRule("/d/f 7#&.txt")] });
      const ruledBody = await body(kv, ruled, cache);
      assert.equal(ruledBody, await body(kv, ruled, undefined));
      assert.ok(!ruledBody.includes("f%207%23%26.txt"));
      assert.ok((await body(kv, admin, cache)).includes("f%207%23%26.txt"));
      // A new file: a new snapshot.
      await Deno.writeTextFile(`${root}/d/new.txt`, "n");
      await new Promise((r) => setTimeout(r, 120));
      const added = await body(kv, admin, cache);
      assert.ok(added.includes("/dav/d/new.txt</href>"));
      assert.equal(added, await body(kv, admin, undefined));
      // A sub-folder whose content changed (unseen by the folder's watcher): its getlastmodified moves.
      await new Promise((r) => setTimeout(r, 1100));
      await Deno.writeTextFile(`${root}/d/sub & co/inner.txt`, "i");
      const touched = await body(kv, admin, cache);
      assert.notEqual(touched, added);
      assert.equal(touched, await body(kv, admin, undefined));
      // Dead properties on a child are never served from a kept answer.
      const segs = realSegments(`${root}/d/f 3#&.txt`);
      await patchDeadProps(kv, segs, [{ clark: "{urn:t}color", value: '<color xmlns="urn:t">red</color>' }], {
        userId: 1,
      });
      const dead = await body(kv, admin, cache);
      assert.ok(dead.includes('<color xmlns="urn:t">red</color>'));
      assert.equal(dead, await body(kv, admin, undefined));
      await patchDeadProps(kv, segs, [{ clark: "{urn:t}color", value: null }], { userId: 1 });
      assert.equal(await body(kv, admin, cache), await body(kv, admin, undefined));
      // Nor are locks on a child.
      const now = Date.now();
      await createLock(kv, {
        token: "opaquelocktoken:t-1",
        segs: realSegments(`${root}/d/f 5#&.txt`),
        root: "/dav/d/f%205%23%26.txt",
        depth: "0",
        scope: "exclusive",
        owner: "",
        userId: 1,
        timeout: 600,
        expires: now + 600_000,
      }, now);
      const locked = await body(kv, admin, cache);
      assert.ok(locked.includes("opaquelocktoken:t-1"));
    } finally {
      await cache.close();
      kv.close();
    }
  });
});

Deno.test("PROPFIND kept answers: bounded in bytes, least recently used out", () => {
  const snaps = [0, 1, 2].map(() => ({ changes: 0 }) as unknown as DirSnapshot);
  const cache = new PropfindCache();
  assert.equal(cache.setBudget(0), 0);
  cache.setBudget(250);
  cache.keep(snaps[0], "k", 0, [new Uint8Array(100)]);
  cache.keep(snaps[1], "k", 0, [new Uint8Array(100)]);
  assert.ok(cache.get(snaps[0], "k") !== null, "used: now the most recent");
  assert.equal(cache.get(snaps[0], "other"), null);
  cache.keep(snaps[2], "k", 0, [new Uint8Array(100)]);
  assert.deepEqual(snaps.map((s) => cache.has(s)), [true, false, true]);
  cache.keep(snaps[1], "k", 0, [new Uint8Array(1000)]);
  assert.equal(cache.has(snaps[1]), false, "larger than the whole budget");
  snaps[0].changes++;
  assert.equal(cache.get(snaps[0], "k"), null, "stale after an in-place change");
  cache.keep(snaps[2], "k", 1, [new Uint8Array(10)]);
  assert.equal(cache.get(snaps[2], "k")?.[0].length, 100, "rendered before a change: not kept");
  assert.equal(cache.setBudget(MAX_KEPT_BYTES), 200);
});

Deno.test("PROPFIND kept answers: two caches (two apps) share no answers and no byte budget", () => {
  const snap = { changes: 0 } as unknown as DirSnapshot;
  const one = new PropfindCache(150);
  const two = new PropfindCache(150);
  one.keep(snap, "k", 0, [new Uint8Array(100)]);
  assert.ok(one.has(snap));
  assert.equal(two.has(snap), false);
  assert.equal(two.get(snap, "k"), null);
  // The other cache's 100 bytes do not count against this one's budget.
  two.keep(snap, "k", 0, [new Uint8Array(120)]);
  assert.equal(two.get(snap, "k")?.[0].length, 120);
  assert.equal(one.get(snap, "k")?.[0].length, 100);
  assert.equal(one.setBudget(150), 100);
  assert.equal(two.setBudget(150), 120);
});

Deno.test("PROPFIND kept answers: several per folder (allprop and prop lists do not push each other out)", () => {
  const snap = { changes: 0 } as unknown as DirSnapshot;
  const other = { changes: 0 } as unknown as DirSnapshot;
  const cache = new PropfindCache(10_000);
  const keys = Array.from({ length: MAX_ANSWERS_PER_FOLDER + 1 }, (_, i) => `k${i}`);
  cache.keep(other, "k0", 0, [new Uint8Array(10)]);
  for (const [i, key] of keys.entries()) {
    cache.keep(snap, key, 0, [new Uint8Array(100 + i)]);
    if (i === 1) {
      assert.equal(cache.get(snap, "k0")?.[0].length, 100, "k0 used: the most recent of its folder");
    }
  }
  assert.deepEqual(keys.map((k) => cache.has(snap, k)), [true, false, true, true, true]);
  assert.equal(cache.get(other, "k0")?.[0].length, 10, "another folder's answer stays");
  assert.equal(cache.setBudget(10_000), 10 + 100 + 102 + 103 + 104);
  // An in-place change of the snapshot: answers rendered before it go when a newer one is kept.
  snap.changes++;
  assert.equal(cache.get(snap, "k2"), null);
  cache.keep(snap, "k9", 1, [new Uint8Array(50)]);
  assert.deepEqual(["k0", "k2", "k3", "k4", "k9"].map((k) => cache.has(snap, k)), [
    false,
    false,
    false,
    false,
    true,
  ]);
  assert.equal(cache.setBudget(10_000), 10 + 50);
  // The byte bound drops the least recently used answer of any folder.
  assert.equal(cache.setBudget(55), 50);
  assert.equal(cache.has(other), false);
});
