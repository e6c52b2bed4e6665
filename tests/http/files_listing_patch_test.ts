/** HTTP tests of listings patched after a change (lib/fs/listing_patch.ts) instead of read again. */
import assert from "node:assert/strict";
import { ListingCache } from "../../lib/fs/listing_cache.ts";
import { filesFixture } from "../fixtures/fs/tree.ts";

function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

Deno.test("GET /api/resources after uploads, saves, renames and deletes: patched, and equal to a fresh read", async () => {
  const f = await filesFixture();
  const big = `${f.home}/big`;
  await Deno.mkdir(big);
  for (let i = 0; i < 400; i++) await Deno.writeTextFile(`${big}/f${i}.txt`, "x".repeat(i % 7));
  const cache = new ListingCache();
  f.deps.listings = cache;
  const listing = async (as = "u") => {
    // u's scope is /home; admin's is the root.
    const r = await f.request(as === "u" ? "/api/resources/big/" : "/api/resources/home/big/", { as });
    assert.equal(r.status, 200);
    return await r.text();
  };
  /** The same listing read afresh (a new, empty cache). */
  const fresh = async (as = "u") => {
    f.deps.listings = new ListingCache();
    try {
      return await listing(as);
    } finally {
      await f.deps.listings.close();
      f.deps.listings = cache;
    }
  };
  try {
    await listing();
    await pause(120);
    await listing();
    const { misses } = cache.stats();
    const steps: [string, string, RequestInit & { body?: string }][] = [
      ["upload", "/api/resources/big/new.txt", { method: "POST", body: "n" }],
      ["save", "/api/resources/big/new.txt", { method: "PUT", body: "longer content" }],
      ["rename", "/api/resources/big/new.txt?action=rename&destination=%2Fbig%2Frenamed.txt", {
        method: "PATCH",
      }],
      ["copy", "/api/resources/big/f1.txt?action=copy&destination=%2Fbig%2Fcopy.txt", { method: "PATCH" }],
      ["delete", "/api/resources/big/f2.txt", { method: "DELETE" }],
      ["mkdir", "/api/resources/big/sub/", { method: "POST" }],
      ["hidden upload", "/api/resources/home/big/.dot.txt", { method: "POST", body: "d" }],
    ];
    for (const [label, path, init] of steps) {
      const r = await f.request(path, {
        ...init,
        as: path.startsWith("/api/resources/home/") ? "admin" : "u",
      });
      assert.ok(r.status < 300, `${label}: ${r.status}`);
      await r.body?.cancel();
      // Right after the change, and again once its events are in.
      assert.equal(await listing(), await fresh(), label);
      await pause(60);
      assert.equal(await listing(), await fresh(), `${label}, later`);
      assert.equal(await listing("admin"), await fresh("admin"), `${label}, admin`);
    }
    const stats = cache.stats();
    assert.equal(stats.misses, misses, `no folder read again: ${JSON.stringify(stats)}`);
    assert.ok(stats.patches >= steps.length, JSON.stringify(stats));
    const names = JSON.parse(await listing()).items.map((i: { name: string }) => i.name);
    assert.ok(names.includes("renamed.txt") && names.includes("copy.txt") && names.includes("sub"));
    assert.ok(!names.includes("new.txt") && !names.includes("f2.txt") && !names.includes(".dot.txt"));
  } finally {
    await cache.close();
    await f.close();
  }
});
