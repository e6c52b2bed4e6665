import assert from "node:assert/strict";
import { StateCache } from "./state_cache.ts";
import { Store } from "./mod.ts";
import { keys } from "./keys.ts";
import { deleteSession, findSession, saveSession } from "./sessions.ts";

const SESSION = { id: "s1", userId: 1, epoch: 0, created: 0, expires: Date.now() + 3600_000 };

Deno.test("StateCache serves a session from memory and forgets it at once when it is deleted here", async () => {
  const kv = await Deno.openKv(":memory:");
  const cache = new StateCache(kv, { recheckMs: 3600_000 });
  try {
    await saveSession(kv, SESSION, Date.now());
    assert.equal((await cache.findSession("s1", Date.now()))?.userId, 1);
    // Removed behind the cache's back (no generation bump, no notification): the copy answers.
    await kv.delete(keys.session("s1"));
    assert.equal((await cache.findSession("s1", Date.now()))?.userId, 1);
    await saveSession(kv, SESSION, Date.now());
    await deleteSession(kv, "s1");
    assert.equal(await cache.findSession("s1", Date.now()), null);
    assert.equal(await findSession(kv, "s1", Date.now()), null);
  } finally {
    await cache.close();
    kv.close();
  }
});

Deno.test("StateCache checks the session's expiry on every read", async () => {
  const kv = await Deno.openKv(":memory:");
  const cache = new StateCache(kv);
  try {
    const now = Date.now();
    await saveSession(kv, { ...SESSION, expires: now + 1000 }, now);
    assert.ok(await cache.findSession("s1", now));
    assert.equal(await cache.findSession("s1", now + 1000), null);
  } finally {
    await cache.close();
    kv.close();
  }
});

Deno.test("StateCache sees a write by another process on the same KV file within recheckMs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fbtest-cache-" });
  const path = `${dir}/db.kv`;
  const kv = await Deno.openKv(path);
  const cache = new StateCache(kv, { recheckMs: 50 });
  try {
    await new Store(kv).saveSettings({ signup: false } as never);
    assert.equal((await cache.settings()).signup, false);
    // Another process writes the settings the way lib/storage does (record and generation in one commit).
    const script = `const kv = await Deno.openKv(${JSON.stringify(path)});
      await kv.atomic().set(["settings"], { signup: true }).sum(${
      JSON.stringify(keys.stateGeneration())
    }, 1n).commit();
      kv.close();`;
    const out = await new Deno.Command(Deno.execPath(), { args: ["eval", "--unstable-kv", script] }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const end = Date.now() + 10_000;
    while (!(await cache.settings()).signup && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    assert.equal((await cache.settings()).signup, true);
  } finally {
    await cache.close();
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
