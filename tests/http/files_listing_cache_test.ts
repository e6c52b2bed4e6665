/** HTTP tests of GET /api/resources listings served through the listing cache (AppDeps.listings). */
import assert from "node:assert/strict";
import { ListingCache } from "../../lib/fs/listing_cache.ts";
import type { Resource } from "../../lib/types.ts";
import { filesFixture } from "../fixtures/fs/tree.ts";

async function names(
  f: Awaited<ReturnType<typeof filesFixture>>,
  path: string,
  as: string,
): Promise<string[]> {
  const r = await f.request(path, { as });
  assert.equal(r.status, 200);
  assert.match(r.headers.get("Content-Type")!, /^application\/json/);
  const body: Resource = await r.json();
  return body.items!.map((i) => i.name);
}

function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

Deno.test("GET /api/resources through the listing cache: per-user views, and writes show at once", async () => {
  const f = await filesFixture();
  const cache = new ListingCache({ minEntries: 0 });
  f.deps.listings = cache;
  try {
    const admin = await names(f, "/api/resources/home/", "admin");
    assert.ok(admin.includes(".env") && admin.includes("a") && admin.includes("rule-hidden.txt"));
    await pause(120);
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(await names(f, "/api/resources/", "u"), [
        "ab",
        "docs",
        "a.txt",
        "back\\slash.txt",
        "good-link.md",
      ]);
      assert.deepEqual(await names(f, "/api/resources/home/", "admin"), admin);
    }
    assert.ok(cache.stats().hits >= 3, JSON.stringify(cache.stats()));

    let r = await f.request("/api/resources/new.txt", { method: "POST", body: "n", as: "u" });
    assert.equal(r.status, 200);
    assert.ok((await names(f, "/api/resources/", "u")).includes("new.txt"), "upload");
    await pause(120);
    r = await f.request("/api/resources/new.txt", { method: "PUT", body: "longer content", as: "u" });
    assert.equal(r.status, 200);
    const listing: Resource = await (await f.request("/api/resources/", { as: "u" })).json();
    assert.equal(listing.items!.find((i) => i.name === "new.txt")!.size, 14, "save");
    r = await f.request("/api/resources/new.txt?action=rename&destination=%2Frenamed.txt", {
      method: "PATCH",
      as: "u",
    });
    assert.equal(r.status, 200);
    const after = await names(f, "/api/resources/", "u");
    assert.ok(after.includes("renamed.txt") && !after.includes("new.txt"), "rename");
    r = await f.request("/api/resources/renamed.txt", { method: "DELETE", as: "u" });
    assert.equal(r.status, 204);
    assert.ok(!(await names(f, "/api/resources/", "u")).includes("renamed.txt"), "delete");
  } finally {
    await cache.close();
    await f.close();
  }
});
