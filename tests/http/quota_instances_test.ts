/**
 * Quotas across instances: two apps on one KV file and one root, each with its own caches and quota ledger,
 * served on real ports. Writes in flight on one instance hold quota bytes the other counts (leases in KV).
 */
import assert from "node:assert/strict";
import { createApp } from "../../app.ts";
import { closeDeps } from "../../lib/background.ts";
import { createDeps } from "../../lib/boot.ts";
import { scopeIdOf, usageKeyOf } from "../../lib/quota.ts";
import type { AppDeps } from "../../lib/state.ts";
import { keys } from "../../lib/storage/keys.ts";
import { HOLD_LEASE_MS, type QuotaHoldRecord } from "../../lib/upload/quota_ledger.ts";
import { QuotaLedger, reserveQuota } from "../../lib/upload/reservations.ts";
import { TEST_PASSWORD, type TestApp, testApp } from "../_helpers.ts";
import { basic } from "./_dav.ts";
import { captureLog } from "./_log.ts";

const PERM = { create: true, modify: true, delete: true, download: true };

/** Instance A (the test app) and instance B (its own deps on the same KV file and root), both served. */
interface Instances {
  a: TestApp;
  b: AppDeps;
  /** Base URLs of A and B. */
  bases: [string, string];
  /** The clock of instance B. */
  clock: { now: number };
  close(): Promise<void>;
}

/** Alice has a 100-byte quota on /alice, already holding 60 bytes: 40 are left. */
async function twoInstances(): Promise<Instances> {
  const dir = await Deno.makeTempDir({ prefix: "fbtest-quota-" });
  const kvPath = `${dir}/db.kv`;
  const a = await testApp({
    kvPath,
    config: { webdav: true },
    users: [{ username: "alice", scope: "/alice", perm: PERM, quota: 100 }],
  });
  await Deno.writeTextFile(`${a.root}/alice/a.txt`, "a".repeat(60));
  const clock = { now: Date.now() };
  const b = createDeps(a.deps.config, { kv: await Deno.openKv(kvPath), exec: null, now: () => clock.now });
  const serve = (fetch: (req: Request) => Response | Promise<Response>) =>
    Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, fetch);
  const servers = [serve(a.app.fetch), serve(createApp(b).fetch)];
  return {
    a,
    b,
    bases: [`http://127.0.0.1:${servers[0].addr.port}`, `http://127.0.0.1:${servers[1].addr.port}`],
    clock,
    async close() {
      for (const server of servers) await server.shutdown();
      await closeDeps(b);
      await a.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** Quota leases in KV of alice's scope. */
async function leases(t: Instances): Promise<QuotaHoldRecord[]> {
  const prefix = [...keys.quotaScopePrefix(await scopeIdOf(usageKeyOf(t.a.deps, t.a.users.alice))), "lease"];
  return (await Array.fromAsync(t.a.deps.kv.list<QuotaHoldRecord>({ prefix }))).map((e) => e.value);
}

async function filesOf(dir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for await (const e of Deno.readDir(dir)) out[e.name] = (await Deno.lstat(`${dir}/${e.name}`)).size;
  return out;
}

async function usage(t: Instances, base: string): Promise<{ total: number; used: number }> {
  const res = await fetch(`${base}/api/usage/`, { headers: { "X-Auth": t.a.tokens.alice } });
  assert.equal(res.status, 200);
  return await res.json();
}

/** Polls `probe` (every 20 ms, at most `ms`) until it returns true; returns the last answer. */
async function eventually(probe: () => Promise<boolean>, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A body that sends `bytes` at once and ends only when `gate` opens. */
function gatedBody(bytes: number, gate: Promise<void>): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new Uint8Array(bytes).fill(119));
        return;
      }
      await gate;
      controller.close();
    },
  });
}

Deno.test("parallel writes on two instances (POST and WebDAV PUT) together admit exactly what fits", async () => {
  const t = await twoInstances();
  const logged = captureLog();
  let open = () => {};
  const gate = new Promise<void>((resolve) => open = resolve);
  try {
    // Both instances have counted the 60 bytes (and cached the count) before the race.
    for (const base of t.bases) assert.deepEqual(await usage(t, base), { total: 100, used: 60 });
    const alice = { "X-Auth": t.a.tokens.alice };
    const dav = { Authorization: basic("alice", TEST_PASSWORD) };
    // One authenticated WebDAV request per instance first, so the race is for the quota, not the password check.
    for (const base of t.bases) {
      const warm = await fetch(`${base}/dav/`, { method: "PROPFIND", headers: { ...dav, Depth: "0" } });
      await warm.body?.cancel();
    }
    const refused: number[] = [];
    const requests = Array.from({ length: 8 }, async (_, i) => {
      const base = t.bases[i % 2];
      const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
      try {
        const res = await fetch(
          i % 4 < 2 ? `${base}/api/resources/w${i}.txt` : `${base}/dav/w${i}.txt`,
          {
            method: i % 4 < 2 ? "POST" : "PUT",
            headers: i % 4 < 2 ? alice : dav,
            body: gatedBody(10, gate),
            client,
          },
        );
        await res.body?.cancel();
        if (res.status === 507) refused.push(i);
        return res.status;
      } finally {
        client.close();
      }
    });
    // Every write either holds its 10 bytes (a lease in KV, the body still open) or was refused, before any lands.
    const decided = await eventually(async () => (await leases(t)).length + refused.length === 8);
    const held = (await leases(t)).length;
    open();
    const statuses = await Promise.all(requests);
    assert.ok(decided, `holds ${held} + refused ${refused.length} never made 8: ${statuses}`);
    assert.equal(statuses.filter((s) => s === 200 || s === 201).length, 4, `statuses: ${statuses}`);
    assert.equal(statuses.filter((s) => s === 507).length, 4, `statuses: ${statuses}`);
    // Nothing half-written: the 60 bytes and four whole files of 10, no temp file left.
    const files = await filesOf(`${t.a.root}/alice`);
    assert.equal(Object.keys(files).length, 5, JSON.stringify(files));
    for (const [name, size] of Object.entries(files)) assert.equal(size, name === "a.txt" ? 60 : 10, name);
    assert.deepEqual(await leases(t), [], "every hold is gone");
    for (const base of t.bases) assert.deepEqual(await usage(t, base), { total: 100, used: 100 });
    assert.deepEqual(logged.errors(), []);
  } finally {
    open();
    logged.stop();
    await t.close();
  }
});

Deno.test("parallel tus creations on two instances admit exactly the declared lengths that fit", async () => {
  const t = await twoInstances();
  const logged = captureLog();
  try {
    const tus = { "X-Auth": t.a.tokens.alice, "Tus-Resumable": "1.0.0" };
    const statuses = await Promise.all(Array.from({ length: 8 }, async (_, i) => {
      const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
      try {
        const res = await fetch(`${t.bases[i % 2]}/api/tus/p${i}.bin?override=false`, {
          method: "POST",
          headers: { ...tus, "Upload-Length": "10" },
          client,
        });
        await res.body?.cancel();
        return res.status;
      } finally {
        client.close();
      }
    }));
    assert.equal(statuses.filter((s) => s === 201).length, 4, `statuses: ${statuses}`);
    assert.equal(statuses.filter((s) => s === 507).length, 4, `statuses: ${statuses}`);
    // The accepted uploads finish where they started (each keeps its lease there), all in parallel: they end
    // exactly at the quota.
    await Promise.all(statuses.map(async (s, i) => {
      if (s !== 201) return;
      const res = await fetch(`${t.bases[i % 2]}/api/tus/p${i}.bin`, {
        method: "PATCH",
        headers: { ...tus, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
        body: "x".repeat(10),
      });
      await res.body?.cancel();
      assert.equal(res.status, 204);
    }));
    const files = await filesOf(`${t.a.root}/alice`);
    assert.equal(Object.values(files).reduce((a, b) => a + b, 0), 100, JSON.stringify(files));
    for (const base of t.bases) assert.deepEqual(await usage(t, base), { total: 100, used: 100 });
    assert.deepEqual(await leases(t), []);
    assert.deepEqual(logged.errors(), []);
  } finally {
    logged.stop();
    await t.close();
  }
});

Deno.test("parallel copies on two instances never take the user past the quota", async () => {
  const t = await twoInstances();
  const logged = captureLog();
  try {
    await Deno.writeTextFile(`${t.a.root}/alice/s.txt`, "s".repeat(20));
    await Deno.writeTextFile(`${t.a.root}/alice/a.txt`, "a".repeat(40));
    for (const base of t.bases) assert.deepEqual(await usage(t, base), { total: 100, used: 60 });
    const statuses = await Promise.all(Array.from({ length: 6 }, async (_, i) => {
      const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
      try {
        const dest = encodeURIComponent(`/c${i}.txt`);
        const res = await fetch(`${t.bases[i % 2]}/api/resources/s.txt?action=copy&destination=${dest}`, {
          method: "PATCH",
          headers: { "X-Auth": t.a.tokens.alice },
          client,
        });
        await res.body?.cancel();
        return res.status;
      } finally {
        client.close();
      }
    }));
    const ok = statuses.filter((s) => s === 200).length;
    assert.ok(ok >= 1 && ok <= 2, `statuses: ${statuses}`);
    assert.equal(statuses.filter((s) => s === 507).length, 6 - ok, `statuses: ${statuses}`);
    const files = await filesOf(`${t.a.root}/alice`);
    const onDisk = Object.values(files).reduce((a, b) => a + b, 0);
    assert.equal(onDisk, 60 + 20 * ok, JSON.stringify(files));
    for (const base of t.bases) assert.deepEqual(await usage(t, base), { total: 100, used: onDisk });
    assert.deepEqual(await leases(t), []);
    assert.deepEqual(logged.errors(), []);
  } finally {
    logged.stop();
    await t.close();
  }
});

Deno.test("a crashed instance's hold stops counting once its lease runs out", async () => {
  const t = await twoInstances();
  try {
    // A third instance holds 30 bytes and dies: nobody renews or releases its lease.
    const crashed = new QuotaLedger(t.b.kv, { now: () => t.clock.now });
    await reserveQuota({ ...t.b, quotaLedger: crashed }, t.a.users.alice, 30);
    crashed.close();
    const write = async () => {
      const res = await fetch(`${t.bases[1]}/api/resources/w.txt?override=true`, {
        method: "POST",
        headers: { "X-Auth": t.a.tokens.alice },
        body: "w".repeat(20),
      });
      await res.body?.cancel();
      return res.status;
    };
    assert.equal(await write(), 507);
    t.clock.now += HOLD_LEASE_MS - 1;
    assert.equal(await write(), 507, "the lease still runs");
    t.clock.now += 2;
    assert.equal(await write(), 200);
    assert.equal(await Deno.readTextFile(`${t.a.root}/alice/w.txt`), "w".repeat(20));
    assert.deepEqual(await leases(t), [], "the expired lease was swept");
  } finally {
    await t.close();
  }
});

Deno.test("a write whose client disconnects mid-body leaves no hold behind (and no ERROR line)", async () => {
  const t = await twoInstances();
  const logged = captureLog();
  try {
    const ac = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 30 bytes, then the client goes away with the body unfinished.
        if (sent++ === 0) controller.enqueue(new Uint8Array(30));
      },
    });
    const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
    const pending = fetch(`${t.bases[0]}/api/resources/cut.txt`, {
      method: "POST",
      headers: { "X-Auth": t.a.tokens.alice },
      body,
      client,
      signal: ac.signal,
    }).then((res) => res.body?.cancel(), () => {});
    const holding = await eventually(async () => (await leases(t)).length === 1);
    assert.ok(holding, "the write never held its bytes");
    ac.abort();
    await pending;
    client.close();
    assert.ok(await eventually(async () => (await leases(t)).length === 0), "the hold outlived the write");
    // All 40 bytes are free again, on the other instance too; nothing of the cut write is on disk.
    const res = await fetch(`${t.bases[1]}/api/resources/full.txt`, {
      method: "POST",
      headers: { "X-Auth": t.a.tokens.alice },
      body: "f".repeat(40),
    });
    await res.body?.cancel();
    assert.equal(res.status, 200);
    assert.deepEqual(await filesOf(`${t.a.root}/alice`), { "a.txt": 60, "full.txt": 40 });
    assert.deepEqual(logged.errors(), []);
  } finally {
    logged.stop();
    await t.close();
  }
});
