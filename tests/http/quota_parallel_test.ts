/**
 * Quotas under parallel writes, over real connections: writes that each fit alone but not together must not
 * take the user past the quota. Unfinished tus uploads hold their declared length; plain writes hold their
 * bytes while they stream.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "../_helpers.ts";

const PERM = { create: true, modify: true, delete: true, download: true };
const TUS = { "Tus-Resumable": "1.0.0" };

/** Alice has a 100-byte quota on /alice, already holding 60 bytes: 40 are left. */
async function quotaApp(): Promise<TestApp> {
  const t = await testApp({ users: [{ username: "alice", scope: "/alice", perm: PERM, quota: 100 }] });
  await Deno.writeTextFile(`${t.root}/alice/a.txt`, "a".repeat(60));
  return t;
}

async function serve(t: TestApp, fn: (base: string) => Promise<void>): Promise<void> {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
    await t.close();
  }
}

async function bytesOnDisk(dir: string): Promise<number> {
  let total = 0;
  for await (const e of Deno.readDir(dir)) if (e.isFile) total += (await Deno.stat(`${dir}/${e.name}`)).size;
  return total;
}

async function usage(t: TestApp, base: string): Promise<{ total: number; used: number }> {
  const res = await fetch(`${base}/api/usage/`, { headers: { "X-Auth": t.tokens.alice } });
  assert.equal(res.status, 200);
  return await res.json();
}

Deno.test("parallel tus creations hold their declared lengths: the ones over the quota are 507", async () => {
  const t = await quotaApp();
  await serve(t, async (base) => {
    const auth = { "X-Auth": t.tokens.alice };
    const statuses = await Promise.all(Array.from({ length: 8 }, async (_, i) => {
      const res = await fetch(`${base}/api/tus/p${i}.bin?override=false`, {
        method: "POST",
        headers: { ...auth, ...TUS, "Upload-Length": "10" },
      });
      await res.body?.cancel();
      return res.status;
    }));
    assert.equal(statuses.filter((s) => s === 201).length, 4, `statuses: ${statuses}`);
    assert.equal(statuses.filter((s) => s === 507).length, 4, `statuses: ${statuses}`);
    // Finishing every accepted upload, in parallel, ends exactly at the quota.
    await Promise.all(statuses.map(async (s, i) => {
      if (s !== 201) return;
      const res = await fetch(`${base}/api/tus/p${i}.bin`, {
        method: "PATCH",
        headers: { ...auth, ...TUS, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
        body: "x".repeat(10),
      });
      await res.body?.cancel();
      assert.equal(res.status, 204);
    }));
    assert.equal(await bytesOnDisk(`${t.root}/alice`), 100);
    assert.deepEqual(await usage(t, base), { total: 100, used: 100 });
  });
});

Deno.test("parallel plain writes never end above the quota", async () => {
  const t = await quotaApp();
  await serve(t, async (base) => {
    const statuses = await Promise.all(Array.from({ length: 8 }, async (_, i) => {
      const res = await fetch(`${base}/api/resources/w${i}.txt`, {
        method: "POST",
        headers: { "X-Auth": t.tokens.alice },
        body: "w".repeat(10),
      });
      await res.body?.cancel();
      return res.status;
    }));
    const ok = statuses.filter((s) => s === 200).length;
    assert.ok(ok >= 1 && ok <= 4, `statuses: ${statuses}`);
    assert.equal(statuses.filter((s) => s !== 200 && s !== 507).length, 0, `statuses: ${statuses}`);
    assert.equal(await bytesOnDisk(`${t.root}/alice`), 60 + 10 * ok);
    assert.ok((await usage(t, base)).used <= 100);
  });
});

Deno.test("parallel copies and saves never end above the quota", async () => {
  const t = await quotaApp();
  await Deno.writeTextFile(`${t.root}/alice/a.txt`, "a".repeat(40));
  await Deno.writeTextFile(`${t.root}/alice/s.txt`, "s".repeat(20));
  await serve(t, async (base) => {
    const auth = { "X-Auth": t.tokens.alice };
    const requests = [
      ...Array.from(
        { length: 4 },
        (_, i) =>
          fetch(`${base}/api/resources/s.txt?action=copy&destination=${encodeURIComponent(`/c${i}.txt`)}`, {
            method: "PATCH",
            headers: auth,
          }),
      ),
      // A save that grows a.txt by 20 bytes.
      fetch(`${base}/api/resources/a.txt`, { method: "PUT", headers: auth, body: "b".repeat(60) }),
    ];
    const statuses = await Promise.all(requests.map(async (p) => {
      const res = await p;
      await res.body?.cancel();
      return res.status;
    }));
    assert.equal(statuses.filter((s) => s === 200).length, 2, `statuses: ${statuses}`);
    assert.equal(statuses.filter((s) => s === 507).length, 3, `statuses: ${statuses}`);
    assert.ok(await bytesOnDisk(`${t.root}/alice`) <= 100);
  });
});

Deno.test("an unfinished tus upload holds its length against plain writes until it is terminated", async () => {
  const t = await quotaApp();
  await serve(t, async (base) => {
    const auth = { "X-Auth": t.tokens.alice };
    let res = await fetch(`${base}/api/tus/big.bin?override=false`, {
      method: "POST",
      headers: { ...auth, ...TUS, "Upload-Length": "40" },
    });
    await res.body?.cancel();
    assert.equal(res.status, 201);
    res = await fetch(`${base}/api/resources/one.txt`, { method: "POST", headers: auth, body: "1" });
    await res.body?.cancel();
    assert.equal(res.status, 507);
    // Creating the same upload again replaces it: its own old length is not counted.
    res = await fetch(`${base}/api/tus/big.bin?override=false`, {
      method: "POST",
      headers: { ...auth, ...TUS, "Upload-Length": "40" },
    });
    await res.body?.cancel();
    assert.equal(res.status, 201);
    res = await fetch(`${base}/api/tus/big.bin`, { method: "DELETE", headers: { ...auth, ...TUS } });
    await res.body?.cancel();
    assert.equal(res.status, 204);
    res = await fetch(`${base}/api/resources/one.txt`, { method: "POST", headers: auth, body: "1" });
    await res.body?.cancel();
    assert.equal(res.status, 200);
  });
});
