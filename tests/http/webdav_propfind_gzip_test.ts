/**
 * Large PROPFIND answers are gzipped for clients that accept it and are not on this host; the compressed and
 * the plain answer carry the same XML, also when served from the kept answer of an unchanged folder.
 */
import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import { ListingCache } from "../../lib/fs/listing_cache.ts";
import { wantsGzip } from "../../lib/webdav/propfind_gzip.ts";
import { basic } from "./_dav.ts";

const AUTH = { Authorization: basic("admin", TEST_PASSWORD), Depth: "1" };

async function gunzip(res: Response): Promise<string> {
  const plain = res.body!.pipeThrough(
    new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
  );
  return await new Response(plain).text();
}

Deno.test("wantsGzip: Accept-Encoding with q values, never for loopback peers", () => {
  const cases: [string | null, string | undefined, boolean][] = [
    ["gzip", undefined, true],
    ["gzip, deflate, br", "192.0.2.7", true],
    ["br;q=1, GZIP;q=0.5", "2001:db8::1", true],
    ["*", undefined, true],
    ["x-gzip", undefined, true],
    ["gzip;q=0", undefined, false],
    ["gzip;q=0.0, identity", undefined, false],
    ["identity", undefined, false],
    ["deflate, br", undefined, false],
    ["", undefined, false],
    [null, undefined, false],
    ["gzip", "127.0.0.1", false],
    ["gzip", "127.3.4.5", false],
    ["gzip", "::1", false],
    ["gzip", "::ffff:127.0.0.1", false],
  ];
  for (const [header, peer, want] of cases) {
    const headers = header === null ? undefined : { "Accept-Encoding": header };
    assert.equal(wantsGzip(new Request("http://x/", { headers }), peer), want, `${header} from ${peer}`);
  }
});

Deno.test("PROPFIND Depth 1 of a big folder is gzipped when accepted, with the same XML", async () => {
  const t = await testApp({ config: { webdav: true } });
  // As main.ts: listings come from the cache, so unchanged folders are answered from their kept answer.
  const listings = new ListingCache({ minEntries: 0 });
  t.deps.listings = listings;
  try {
    await Deno.mkdir(`${t.root}/big`);
    for (let i = 0; i < 300; i++) await Deno.writeTextFile(`${t.root}/big/f${i}.txt`, "x".repeat(i));
    await Deno.mkdir(`${t.root}/small`);
    await Deno.writeTextFile(`${t.root}/small/a.txt`, "a");
    const propfind = (path: string, encoding?: string) =>
      t.app.request(path, {
        method: "PROPFIND",
        headers: encoding ? { ...AUTH, "Accept-Encoding": encoding } : AUTH,
      });
    const plainRes = await propfind("/dav/big/");
    assert.equal(plainRes.status, 207);
    assert.equal(plainRes.headers.get("Content-Encoding"), null);
    assert.equal(plainRes.headers.get("Vary"), "Accept-Encoding");
    const plain = await plainRes.text();
    assert.equal(plain.match(/<response>/g)?.length, 301);
    // First gzip answer rendered now, then from the kept answer: both decompress to the plain XML.
    for (let round = 0; round < 3; round++) {
      const res = await propfind("/dav/big/", "gzip, deflate");
      assert.equal(res.status, 207);
      assert.equal(res.headers.get("Content-Encoding"), "gzip");
      assert.equal(await gunzip(res), plain, `round ${round}`);
    }
    const refused = await propfind("/dav/big/", "gzip;q=0");
    assert.equal(refused.headers.get("Content-Encoding"), null);
    assert.equal(await refused.text(), plain);
    // A small folder and a Depth 0 answer are not worth compressing.
    const small = await propfind("/dav/small/", "gzip");
    assert.equal(small.headers.get("Content-Encoding"), null);
    await small.body?.cancel();
    // A change to the folder shows in the next compressed answer.
    await Deno.writeTextFile(`${t.root}/big/new.txt`, "n");
    let seen = false;
    for (let i = 0; i < 100 && !seen; i++) {
      seen = (await gunzip(await propfind("/dav/big/", "gzip"))).includes("/dav/big/new.txt");
      if (!seen) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(seen, "the new file shows up");
  } finally {
    await listings.close();
    await t.close();
  }
});
