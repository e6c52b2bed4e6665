/** The audit log under anonymous floods (refused requests counted past a share), and drop-link uploads in it. */
import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import { auditPage } from "../../lib/audit/query.ts";
import { flushAuditCounts } from "../../lib/audit/mod.ts";
import { PER_CLIENT, WINDOW_MS } from "../../lib/audit/flood.ts";
import { UNKNOWN_PATH_MAX } from "../../lib/audit/actions.ts";
import type { AuditEntry } from "../../lib/types.ts";

const REQUESTS = 3000;
const CONNECTIONS = 32;

async function allEntries(kv: Deno.Kv): Promise<AuditEntry[]> {
  return (await auditPage(kv, {}, { limit: 1000 })).entries;
}

Deno.test({
  name: "3,000 anonymous POST /api/<junk> over 32 parallel connections add a bounded number of audit entries",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const t = await testApp({ config: { loginRateLimit: 1000 } });
    // One minute for the whole burst, so the bound below is exact (a real burst across a minute's end costs one
    // more count).
    const minute = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS;
    t.deps.now = () => minute + 1000;
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const clients = Array.from({ length: CONNECTIONS }, () => Deno.createHttpClient({}));
    try {
      let next = 0;
      const statuses = new Map<number, number>();
      await Promise.all(clients.map(async (client) => {
        while (next < REQUESTS) {
          const i = next++;
          // 1,000 characters of attacker text in the route name, and a body nobody reads.
          const junk = `${i}-${crypto.randomUUID()}`.padEnd(1000, "A");
          const res = await fetch(`${base}/api/${junk}`, {
            method: "POST",
            body: "x".repeat(1000),
            client,
            signal: AbortSignal.timeout(120_000),
          });
          await res.body?.cancel();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }));
      assert.deepEqual([...statuses], [[404, REQUESTS]]);
      // A failed login from the same client right after is still recorded in full: junk has a share of its own.
      const login = await fetch(`${base}/api/login`, {
        method: "POST",
        body: JSON.stringify({ username: "admin", password: "wrong-password" }),
        client: clients[0],
      });
      await login.body?.cancel();
      assert.equal(login.status, 403);

      const during = await allEntries(t.deps.kv);
      const full = during.filter((e) => e.action === "api.unknown");
      assert.equal(full.length, PER_CLIENT);
      for (const e of full) {
        assert.equal(e.client, "127.0.0.1");
        assert.ok(e.path.length <= UNKNOWN_PATH_MAX, `path of ${e.path.length} characters`);
        assert.equal(e.detail, "POST");
      }
      assert.equal(during.filter((e) => e.action === "login").length, 1);

      // Once the minute is over, what was left out is one entry with its count.
      t.deps.now = () => minute + WINDOW_MS + 1000;
      await flushAuditCounts(t.deps);
      const after = await allEntries(t.deps.kv);
      assert.ok(after.length <= PER_CLIENT + 2, `${after.length} entries for ${REQUESTS} requests`);
      const counts = after.filter((e) => e.action === "audit.suppressed");
      assert.deepEqual(counts.map((e) => [e.client, e.target, e.status]), [["127.0.0.1", "api", 429]]);
      assert.equal(Number(counts[0].detail) + full.length, REQUESTS, "every request is accounted for");
    } finally {
      for (const c of clients) c.close();
      await server.shutdown();
      await t.close();
    }
  },
});

Deno.test("audit: drop-link uploads are recorded, refused passwords too, with the name the server chose", async () => {
  const t = await testApp({
    users: [{ username: "owner", perm: { share: true, download: true, create: true } }],
  });
  try {
    await Deno.mkdir(`${t.root}/inbox`);
    await Deno.writeTextFile(`${t.root}/inbox/a.txt`, "taken");
    const made = await t.request("/api/share/inbox/", {
      method: "POST",
      as: "owner",
      body: JSON.stringify({ kind: "drop", password: "letmein" }),
    });
    assert.equal(made.status, 200);
    const { hash } = await made.json();
    const tus = { "Tus-Resumable": "1.0.0" };
    const wrong = await t.request(`/api/public/tus/${hash}/a.txt`, {
      method: "POST",
      headers: { ...tus, "Upload-Length": "2", "X-SHARE-PASSWORD": "guess" },
    });
    assert.equal(wrong.status, 401);
    const created = await t.request(`/api/public/tus/${hash}/a.txt`, {
      method: "POST",
      headers: { ...tus, "Upload-Length": "2", "X-SHARE-PASSWORD": "letmein" },
    });
    assert.equal(created.status, 201);
    const location = new URL(created.headers.get("Location")!, "http://x");
    const refusedChunk = await t.request(location.pathname, {
      method: "PATCH",
      headers: { ...tus, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
      body: "hi",
    });
    assert.equal(refusedChunk.status, 401);
    const chunk = await t.request(location.pathname + location.search, {
      method: "PATCH",
      headers: { ...tus, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
      body: "hi",
    });
    assert.equal(chunk.status, 204);
    assert.equal(await Deno.readTextFile(`${t.root}/inbox/a (1).txt`), "hi");

    const list = (await allEntries(t.deps.kv)).filter((e) => e.action.startsWith("share.drop")).reverse();
    assert.deepEqual(list.map((e) => [e.action, e.path, e.target, e.status, e.user, e.detail]), [
      ["share.drop_start", "/a.txt", hash, 401, "", "share_password_wrong"],
      ["share.drop_start", "/a (1).txt", hash, 201, "", ""],
      // A refused chunk is known by the upload's id only (its URL), never by the name the server chose.
      ["share.drop", `/${location.pathname.split("/").pop()}`, hash, 401, "", "share_password_required"],
      ["share.drop", "/a (1).txt", hash, 204, "", ""],
    ]);
  } finally {
    await t.close();
  }
});
