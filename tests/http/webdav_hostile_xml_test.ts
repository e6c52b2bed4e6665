/**
 * Hostile WebDAV request bodies over real HTTP (docs/security.md#webdav-request-bodies): each answers 4xx at
 * once while `/health`, asked in a loop meanwhile, keeps answering; PROPPATCH and LOCK bodies of users without
 * the permission are not even parsed.
 */
import assert from "node:assert/strict";
import { TEST_PASSWORD } from "../_helpers.ts";
import { hostileXml } from "../fixtures/hostile_xml.ts";
import { basic, type DavServer, serveDav } from "./_dav.ts";

// Liveness bounds, not figures (bench/webdav_xml.ts has those): the old parser kept /health waiting 20 s and
// more; 5 s leaves room for a loaded 2-core CI machine running a browser beside the suite.
const REQUEST_BOUND_MS = 5000;
const HEALTH_BOUND_MS = 5000;

/** Asks `/health` one request after another until stopped; the slowest answer's time. */
function healthLoop(origin: string): { stop(): Promise<number> } {
  let running = true;
  let slowest = 0;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${origin}/health`);
      assert.equal(res.status, 200);
      await res.body?.cancel();
      slowest = Math.max(slowest, performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return slowest;
    },
  };
}

async function send(
  s: DavServer,
  method: string,
  as: string,
  body: string,
): Promise<{ status: number; ms: number; text: string }> {
  const t0 = performance.now();
  const res = await fetch(s.davUrl, {
    method,
    body,
    headers: {
      Authorization: basic(as, TEST_PASSWORD),
      Depth: "0",
      "Content-Type": "application/xml",
    },
  });
  const text = await res.text();
  return { status: res.status, ms: performance.now() - t0, text };
}

Deno.test("hostile XML bodies answer 400 in milliseconds while /health keeps answering", async () => {
  const s = await serveDav({
    users: [
      { username: "reader", perm: { download: true } },
      { username: "writer", perm: { download: true, modify: true, create: true } },
    ],
  });
  const table = hostileXml();
  // Warm the connection and the parser up with an ordinary request.
  const ok = await send(s, "PROPFIND", "reader", '<propfind xmlns="DAV:"><prop><getetag/></prop></propfind>');
  assert.equal(ok.status, 207);
  const health = healthLoop(s.origin);
  const slow: string[] = [];
  try {
    for (const [name, body, why] of table) {
      const cases: [string, string][] = [["PROPFIND", "reader"], ["PROPPATCH", "writer"], ["LOCK", "writer"]];
      for (const [method, as] of cases) {
        const r = await send(s, method, as, body);
        assert.equal(r.status, 400, `${method} ${name}: ${r.status} ${r.text.slice(0, 200)}`);
        assert.match(r.text, why, `${method} ${name}`);
        if (r.ms >= REQUEST_BOUND_MS) slow.push(`${method} ${name}: ${r.ms.toFixed(0)} ms`);
      }
    }
  } finally {
    const slowest = await health.stop();
    await s.close();
    assert.deepEqual(slow, [], "every hostile request answered well under a second");
    assert.ok(slowest < HEALTH_BOUND_MS, `/health waited ${slowest.toFixed(0)} ms`);
  }
});

Deno.test("PROPPATCH and LOCK bodies are parsed only after the permission check; a body over 1 MiB is 413", async () => {
  const s = await serveDav({ users: [{ username: "reader", perm: { download: true } }] });
  try {
    await Deno.writeTextFile(`${s.t.root}/a.txt`, "a");
    const [, body] = hostileXml()[0];
    for (const method of ["PROPPATCH", "LOCK"]) {
      // A malformed body, too: were it parsed first, it would answer 400.
      for (const text of [body, "<not xml"]) {
        const res = await fetch(`${s.davUrl}a.txt`, {
          method,
          body: text,
          headers: { Authorization: basic("reader", TEST_PASSWORD) },
        });
        assert.equal(res.status, 403, method);
        await res.body?.cancel();
      }
    }
    const big = `<propfind xmlns="DAV:"><prop>${"<a/>".repeat(1 << 18)}</prop></propfind>`;
    const r = await send(s, "PROPFIND", "reader", big);
    assert.equal(r.status, 413);
  } finally {
    await s.close();
  }
});

Deno.test("a PROPFIND names at most 256 properties", async () => {
  const s = await serveDav({ users: [{ username: "reader", perm: { download: true } }] });
  try {
    const list = (n: number) =>
      `<propfind xmlns="DAV:"><prop>${
        Array.from({ length: n }, (_, i) => `<p${i} xmlns="urn:x"/>`).join("")
      }</prop></propfind>`;
    assert.equal((await send(s, "PROPFIND", "reader", list(256))).status, 207);
    const r = await send(s, "PROPFIND", "reader", list(257));
    assert.equal(r.status, 400);
    assert.match(r.text, /at most 256 properties/);
    const include = `<propfind xmlns="DAV:"><allprop/><include>${"<a/>".repeat(257)}</include></propfind>`;
    assert.equal((await send(s, "PROPFIND", "reader", include)).status, 400);
  } finally {
    await s.close();
  }
});
