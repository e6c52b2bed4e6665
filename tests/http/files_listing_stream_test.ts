/** HTTP test of large listings over real connections: streamed in chunks that the listing cache shares. */
import assert from "node:assert/strict";
import { ListingCache } from "../../lib/fs/listing_cache.ts";
import { filesFixture } from "../fixtures/fs/tree.ts";

Deno.test("GET /api/resources of a large folder: parallel connections get the same complete JSON", async () => {
  const f = await filesFixture();
  const cache = new ListingCache({ minEntries: 0 });
  f.deps.listings = cache;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, f.app.fetch);
  const clients = Array.from({ length: 8 }, () => Deno.createHttpClient({}));
  try {
    const dir = `${f.root}/home/big`;
    await Deno.mkdir(dir);
    for (let i = 0; i < 1500; i++) Deno.writeTextFileSync(`${dir}/f-${i}-${"n".repeat(120)}.txt`, "x");
    await new Promise((r) => setTimeout(r, 120));
    const url = `http://127.0.0.1:${server.addr.port}/api/resources/home/big/`;
    const get = async (client: Deno.HttpClient) => {
      const r = await fetch(url, { headers: { "X-Auth": f.tokens.admin }, client });
      assert.equal(r.status, 200);
      assert.match(r.headers.get("Content-Type")!, /^application\/json/);
      return await r.text();
    };
    const first = await get(clients[0]);
    assert.equal(JSON.parse(first).items.length, 1500);
    assert.ok(first.length > 512 * 1024, "several chunks");
    for (let round = 0; round < 2; round++) {
      const bodies = await Promise.all(clients.map(get));
      for (const body of bodies) assert.equal(body, first);
    }
    assert.ok(cache.stats().hits >= 8, JSON.stringify(cache.stats()));
  } finally {
    for (const client of clients) client.close();
    await server.shutdown();
    await cache.close();
    await f.close();
  }
});
