/**
 * Password-guess throttling over real parallel connections: logins and share passwords, behind a trusted proxy
 * or not, on one instance or two instances sharing a KV file.
 */
import assert from "node:assert/strict";
import { createApp } from "../../app.ts";
import type { Config } from "../../config.ts";
import { hashPassword } from "../../lib/auth/passwords.ts";
import { createDeps } from "../../lib/boot.ts";
import type { StateCache } from "../../lib/storage/state_cache.ts";
import { defaultSettings, normalizeSettings } from "../../lib/settings.ts";
import { shares, Store, users } from "../../lib/storage/mod.ts";
import { userFromDefaults } from "../../lib/users.ts";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";

/** Serves a fetch handler on 127.0.0.1:0 until close(). */
function serve(handler: (req: Request) => Response | Promise<Response>) {
  const ac = new AbortController();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} }, handler);
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    async close() {
      ac.abort();
      await server.finished;
    },
  };
}

function login(base: string, password: string, headers: Record<string, string> = {}): Promise<number> {
  return fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ username: "alice", password }),
  }).then(async (r) => {
    await r.body?.cancel();
    return r.status;
  });
}

function count(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

const LIMIT = 5;

Deno.test("100 simultaneous wrong logins and the right one: at most `limit` are evaluated", async () => {
  const t = await testApp({ users: [{ username: "alice" }], config: { loginRateLimit: LIMIT } });
  const s = serve(t.app.fetch);
  try {
    const guesses = Array.from({ length: 101 }, (_, i) => i === 50 ? TEST_PASSWORD : `wrong-${i}`);
    const c = count(await Promise.all(guesses.map((p) => login(s.url, p))));
    const evaluated = (c[403] ?? 0) + (c[200] ?? 0);
    assert.ok(evaluated >= 1 && evaluated <= LIMIT, `evaluated ${evaluated}: ${JSON.stringify(c)}`);
    assert.equal(c[429], 101 - evaluated, JSON.stringify(c));
    // The limit is used up: the right password is not granted any more from this client.
    assert.equal(await login(s.url, TEST_PASSWORD), 429);
  } finally {
    await s.close();
    await t.close();
  }
});

Deno.test("behind a trusted proxy each forwarded client has its own bucket; untrusted peers share theirs", async () => {
  for (const header of ["X-Forwarded-For", "X-Real-IP"]) {
    const t = await testApp({
      users: [{ username: "alice" }],
      config: { loginRateLimit: LIMIT, trustedProxies: ["127.0.0.1", "::1"] },
    });
    const s = serve(t.app.fetch);
    try {
      const mallory = {
        [header]: header === "X-Forwarded-For" ? "10.9.9.9, 198.51.100.66" : "198.51.100.66",
      };
      const c = count(await Promise.all(Array.from({ length: 30 }, () => login(s.url, "typo", mallory))));
      assert.deepEqual(c, { 403: LIMIT, 429: 30 - LIMIT }, header);
      // Another person behind the same proxy still logs in.
      assert.equal(await login(s.url, TEST_PASSWORD, { [header]: "198.51.100.7" }), 200, header);
      // Spoofed hops to the left of the proxy's own entry change nothing for the attacker.
      const spoofed = { "X-Forwarded-For": "198.51.100.7, 198.51.100.66" };
      if (header === "X-Forwarded-For") assert.equal(await login(s.url, TEST_PASSWORD, spoofed), 429);
    } finally {
      await s.close();
      await t.close();
    }
  }
  // The same headers from a peer that is not a trusted proxy are ignored: one bucket for the socket address.
  const t = await testApp({
    users: [{ username: "alice" }],
    config: { loginRateLimit: LIMIT, trustedProxies: ["192.0.2.1"] },
  });
  const s = serve(t.app.fetch);
  try {
    for (let i = 0; i < LIMIT; i++) {
      assert.equal(await login(s.url, "typo", { "X-Forwarded-For": `198.51.100.${i}` }), 403);
    }
    assert.equal(await login(s.url, TEST_PASSWORD, { "X-Forwarded-For": "198.51.100.200" }), 429);
    assert.equal(await login(s.url, TEST_PASSWORD, { "X-Real-IP": "198.51.100.201" }), 429);
  } finally {
    await s.close();
    await t.close();
  }
});

Deno.test("one client guessing across many usernames hits the per-client cap", async () => {
  const t = await testApp({ users: [{ username: "alice" }], config: { loginRateLimit: 2 } });
  const s = serve(t.app.fetch);
  try {
    const names = Array.from({ length: 40 }, (_, i) => `user${i}`);
    const statuses = await Promise.all(
      names.map((username) =>
        fetch(`${s.url}/api/login`, { method: "POST", body: JSON.stringify({ username, password: "x" }) })
          .then(async (r) => (await r.body?.cancel(), r.status))
      ),
    );
    assert.deepEqual(count(statuses), { 403: 10, 429: 30 });
    assert.equal(await login(s.url, TEST_PASSWORD), 429);
  } finally {
    await s.close();
    await t.close();
  }
});

Deno.test("two instances on one KV file share the login counters", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fbthrottle-" });
  const base = await testApp({ config: { loginRateLimit: LIMIT } });
  const servers: { url: string; close(): Promise<void> }[] = [];
  const kvs: Deno.Kv[] = [];
  const caches: StateCache[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const kv = await Deno.openKv(`${dir}/db.kv`);
      kvs.push(kv);
      const store = new Store(kv);
      const config: Config = { ...base.deps.config, database: `${dir}/db.kv` };
      if (i === 0) {
        const settings = normalizeSettings(defaultSettings());
        await store.saveSettings(settings);
        await users.createUser(kv, userFromDefaults(settings, "alice", await hashPassword(TEST_PASSWORD)));
      }
      const deps = createDeps(config, { kv });
      caches.push(deps.cache);
      servers.push(serve(createApp(deps).fetch));
    }
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(servers[i % 2].url, `wrong-${i}`)),
    );
    const c = count(statuses);
    assert.ok((c[403] ?? 0) <= LIMIT && (c[403] ?? 0) >= 1, JSON.stringify(c));
    assert.equal((c[403] ?? 0) + (c[429] ?? 0), 60, JSON.stringify(c));
    assert.equal(await login(servers[0].url, TEST_PASSWORD), 429);
    assert.equal(await login(servers[1].url, TEST_PASSWORD), 429);
  } finally {
    for (const s of servers) await s.close();
    for (const cache of caches) await cache.close();
    for (const kv of kvs) kv.close();
    await base.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("120 simultaneous share-password guesses: at most `limit` are evaluated; other clients unaffected", async () => {
  const t = await testApp({
    users: [{ username: "owner", perm: { share: true, download: true } }],
    config: { loginRateLimit: LIMIT, trustedProxies: ["127.0.0.1"] },
  });
  const s = serve(t.app.fetch);
  try {
    await Deno.writeTextFile(`${t.root}/doc.txt`, "secret");
    await shares.createShare(t.deps.kv, {
      hash: "pw000001",
      path: "/doc.txt",
      userID: t.users.owner.id,
      expire: 0,
      passwordHash: await hashPassword("the-share-password"),
      token: "T".repeat(128),
    });
    const open = (password: string, client: string) =>
      fetch(`${s.url}/api/public/share/pw000001`, {
        headers: { "X-SHARE-PASSWORD": password, "X-Forwarded-For": client },
      }).then(async (r) => (await r.body?.cancel(), r.status));
    const guesses = Array.from({ length: 120 }, (_, i) => open(`guess-${i}`, "198.51.100.66"));
    const c = count(await Promise.all(guesses));
    assert.ok((c[401] ?? 0) >= 1 && (c[401] ?? 0) <= LIMIT, JSON.stringify(c));
    assert.equal((c[401] ?? 0) + (c[429] ?? 0), 120, JSON.stringify(c));
    assert.equal(await open("the-share-password", "198.51.100.66"), 429);
    assert.equal(await open("the-share-password", "198.51.100.7"), 200);
  } finally {
    await s.close();
    await t.close();
  }
});
