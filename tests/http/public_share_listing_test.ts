/** HTTP tests: a public folder share is listed by the same snapshot pipeline (and cache) as /api/resources. */
import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import { ListingCache } from "../../lib/fs/listing_cache.ts";
import { shares } from "../../lib/storage/mod.ts";
import { hashPassword } from "../../lib/auth/passwords.ts";

Deno.test("public share: a folder listing goes through the listing cache and keeps filebrowser's shape", async () => {
  const f = await testApp({ users: [{ username: "owner", perm: { share: true, download: true } }] });
  const listings = new ListingCache({ minEntries: 0 });
  f.deps.listings = listings;
  try {
    await Deno.mkdir(`${f.root}/pub/sub`, { recursive: true });
    await Deno.writeTextFile(`${f.root}/pub/a.txt`, "secret words");
    await Deno.writeTextFile(`${f.root}/pub/.hidden`, "x");
    await shares.createShare(f.deps.kv, {
      hash: "folder01",
      path: "/pub",
      userID: f.users.owner.id,
      expire: 0,
      passwordHash: await hashPassword("password"),
      token: "tok",
    });
    // Past the cache's "racy" window, so a second request may be served from the snapshot.
    await new Promise((r) => setTimeout(r, 100));
    const bodies: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await f.request("/api/public/share/folder01?token=tok");
      assert.equal(r.status, 200);
      assert.match(r.headers.get("Content-Type") ?? "", /^application\/json/);
      bodies.push(await r.text());
    }
    assert.equal(bodies[0], bodies[1]);
    assert.ok(bodies[0].startsWith('{"items":['), "items first, as upstream");
    const listing = JSON.parse(bodies[0]);
    assert.equal(listing.name, "pub", "the root is named after the shared folder");
    assert.equal(listing.path, "/");
    assert.equal(listing.token, "tok", "a password-protected share hands out its token");
    assert.equal(listing.content, undefined);
    const names = listing.items.map((it: { name: string }) => it.name).sort();
    assert.deepEqual(names, [".hidden", "a.txt", "sub"]);
    assert.ok(listing.items.every((it: { content?: string }) => it.content === undefined));
    const stats = listings.stats();
    assert.ok(
      stats.hits + stats.misses >= 2,
      `both answers went through the cache: ${JSON.stringify(stats)}`,
    );

    const file = await f.request("/api/public/share/folder01/a.txt?token=tok");
    assert.equal(file.status, 200);
    const one = JSON.parse(await file.text());
    assert.equal(one.name, "a.txt");
    assert.equal(one.content, undefined, "no file content without the download right in the share");
  } finally {
    await listings.close();
    await f.close();
  }
});
