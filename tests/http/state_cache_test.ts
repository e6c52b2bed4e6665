/** Settings, users and sessions cached in memory: writes on one instance are seen by another on the same KV. */
import assert from "node:assert/strict";
import { createApp } from "../../app.ts";
import type { AppDeps } from "../../lib/state.ts";
import { Store } from "../../lib/storage/mod.ts";
import { StateCache } from "../../lib/storage/state_cache.ts";
import { testApp } from "../_helpers.ts";

/** A second app on the same KV file, with its own handle and cache; the periodic re-read is off, so only the watch tells. */
async function secondInstance(deps: AppDeps, kvPath: string) {
  const kv = await Deno.openKv(kvPath);
  const cache = new StateCache(kv, { recheckMs: 3600_000 });
  const app = createApp({ ...deps, kv, store: new Store(kv), cache });
  return {
    app,
    async close() {
      await cache.close();
      kv.close();
    },
  };
}

/** Polls `probe` until it returns true or `ms` pass; returns the last answer. */
async function eventually(probe: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("a logout on one instance is seen by another instance on the same KV within a bounded time", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fbtest-kv-" });
  const kvPath = `${dir}/db.kv`;
  const t = await testApp({ kvPath, users: [{ username: "alice", perm: { download: true } }] });
  const b = await secondInstance(t.deps, kvPath);
  try {
    const asAlice = { headers: { "X-Auth": t.tokens.alice } };
    // Warm both instances' caches with alice's session.
    assert.equal((await t.request("/api/resources/", { as: "alice" })).status, 200);
    assert.equal((await b.app.request("/api/resources/", asAlice)).status, 200);
    assert.equal((await b.app.request("/api/resources/", asAlice)).status, 200);
    assert.equal((await t.request("/api/logout", { method: "POST", as: "alice" })).status, 200);
    assert.equal((await t.request("/api/resources/", { as: "alice" })).status, 401);
    const revoked = await eventually(async () => {
      const res = await b.app.request("/api/resources/", asAlice);
      await res.body?.cancel();
      return res.status === 401;
    });
    assert.ok(revoked, "instance B still accepted the token 10 s after the logout on instance A");
  } finally {
    await b.close();
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a settings change on one instance reaches another instance on the same KV", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fbtest-kv-" });
  const kvPath = `${dir}/db.kv`;
  const t = await testApp({ kvPath });
  const b = await secondInstance(t.deps, kvPath);
  try {
    const asAdmin = { headers: { "X-Auth": t.tokens.admin } };
    const before = await (await b.app.request("/api/settings", asAdmin)).json();
    assert.equal(before.signup, false);
    const res = await t.request("/api/settings", {
      method: "PUT",
      as: "admin",
      body: JSON.stringify({ ...before, signup: true }),
    });
    assert.equal(res.status, 200);
    const seen = await eventually(async () =>
      (await (await b.app.request("/api/settings", asAdmin)).json()).signup
    );
    assert.ok(seen, "instance B still had the old settings 10 s after the change on instance A");
  } finally {
    await b.close();
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});
