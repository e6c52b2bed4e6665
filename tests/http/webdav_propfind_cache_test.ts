/**
 * Kept PROPFIND answers as served: one listing snapshot shared with the Files API, no entry a user may not
 * see in any form (plain or gzip) even when another user's answer of the same folder is kept, and no stale
 * answer after a change.
 */
import assert from "node:assert/strict";
import { TEST_PASSWORD, type TestApp, testApp } from "../_helpers.ts";
import { ListingCache } from "../../lib/fs/listing_cache.ts";
import { basic } from "./_dav.ts";

async function gunzip(res: Response): Promise<string> {
  const plain = res.body!.pipeThrough(
    new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
  );
  return await new Response(plain).text();
}

async function bigFolder(t: TestApp): Promise<ListingCache> {
  // As main.ts: listings come from the cache, so unchanged folders are answered from their kept answer.
  const listings = new ListingCache({ minEntries: 0 });
  t.deps.listings = listings;
  await Deno.mkdir(`${t.root}/big`);
  for (let i = 0; i < 300; i++) await Deno.writeTextFile(`${t.root}/big/f${i}.txt`, "x");
  // Past the window in which the folder's mtime cannot tell a later change apart.
  await new Promise((r) => setTimeout(r, 120));
  return listings;
}

async function propfind(t: TestApp, as: string, encoding?: string): Promise<Response> {
  const headers: Record<string, string> = { Authorization: basic(as, TEST_PASSWORD), Depth: "1" };
  if (encoding) headers["Accept-Encoding"] = encoding;
  return await t.app.request("/dav/big/", { method: "PROPFIND", headers });
}

Deno.test("PROPFIND and GET /api/resources read one snapshot of a folder, in any order", async () => {
  const t = await testApp({ config: { webdav: true, typeDetectionByHeader: true } });
  const listings = await bigFolder(t);
  try {
    for (let i = 0; i < 3; i++) {
      const api = await t.request("/api/resources/big/", { as: "admin" });
      assert.equal(api.status, 200);
      await api.body?.cancel();
      const dav = await propfind(t, "admin");
      assert.equal(dav.status, 207);
      await dav.body?.cancel();
    }
    const { misses, hits } = listings.stats();
    assert.deepEqual({ misses, hits }, { misses: 1, hits: 5 });
  } finally {
    await listings.close();
    await t.close();
  }
});

Deno.test("kept PROPFIND answers never show an entry to a user who may not see it, plain or gzip", async () => {
  const t = await testApp({
    config: { webdav: true },
    users: [{
      username: "bob",
      perm: "all",
      scope: "/",
      rules: [{ regex: false, allow: false, path: "/big/f7.txt", regexp: null }],
    }],
  });
  const listings = await bigFolder(t);
  try {
    // The admin's answers are rendered and kept first (plain, then its gzip).
    const adminPlain = await (await propfind(t, "admin")).text();
    assert.ok(adminPlain.includes("/dav/big/f7.txt</href>"));
    assert.equal(await gunzip(await propfind(t, "admin", "gzip")), adminPlain);
    for (let round = 0; round < 2; round++) {
      const plainRes = await propfind(t, "bob");
      assert.equal(plainRes.headers.get("Content-Encoding"), null);
      const plain = await plainRes.text();
      assert.ok(!plain.includes("f7.txt"), `round ${round}: plain`);
      assert.ok(plain.includes("/dav/big/f8.txt</href>"));
      const gz = await propfind(t, "bob", "gzip");
      assert.equal(gz.headers.get("Content-Encoding"), "gzip");
      assert.equal(await gunzip(gz), plain, `round ${round}: gzip`);
    }
    // Still the admin's own view afterwards.
    assert.equal(await gunzip(await propfind(t, "admin", "gzip")), adminPlain);
    assert.equal(await (await propfind(t, "admin")).text(), adminPlain);
  } finally {
    await listings.close();
    await t.close();
  }
});

Deno.test("after a change, neither the plain nor the gzip PROPFIND answer is the kept one", async () => {
  const t = await testApp({ config: { webdav: true } });
  const listings = await bigFolder(t);
  try {
    const before = await (await propfind(t, "admin")).text();
    assert.equal(await gunzip(await propfind(t, "admin", "gzip")), before);
    await Deno.remove(`${t.root}/big/f3.txt`);
    await Deno.writeTextFile(`${t.root}/big/f4.txt`, "longer now");
    // The watcher's event may take a moment; the folder's mtime tells at once.
    const plain = await (await propfind(t, "admin")).text();
    const gz = await gunzip(await propfind(t, "admin", "gzip"));
    for (const [what, text] of [["plain", plain], ["gzip", gz]]) {
      assert.ok(!text.includes("/dav/big/f3.txt</href>"), `${what}: the removed file is gone`);
      assert.match(text, /f4\.txt<\/href><propstat><prop>(?:(?!<\/response>).)*<getcontentlength>10</, what);
    }
    assert.equal(gz, plain);
  } finally {
    await listings.close();
    await t.close();
  }
});
