import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import { users } from "../../lib/storage/mod.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

async function startServer(args: string[], env: Record<string, string>) {
  const child = new Deno.Command("deno", {
    args: ["task", "start", "--port", "0", ...args],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const decoder = new TextDecoder();
  let log = "";
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const errDone = child.stderr.pipeTo(new WritableStream({ write: (c) => void (log += decoder.decode(c)) }));
  let port = 0;
  while (!port) {
    const { value, done } = await reader.read();
    if (done) break;
    log += value;
    port = Number(log.match(/listening on http:\/\/[^:]+:(\d+)\//)?.[1] ?? 0);
  }
  return {
    port,
    log: () => log,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await reader.cancel().catch(() => {});
      await errDone.catch(() => {});
    },
  };
}

Deno.test({
  name: "`deno task start` passes extra flags, prints the first admin password once and never again",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const first = await startServer(["--database", `${dir}/db.kv`], {});
      assert.ok(first.port > 0, first.log());
      const pw = first.log().match(/password: (\S+)/)?.[1];
      assert.ok(pw, first.log());
      const login = await fetch(`http://127.0.0.1:${first.port}/api/login`, {
        method: "POST",
        body: JSON.stringify({ username: "admin", password: pw }),
      });
      assert.equal(login.status, 200);
      await login.body?.cancel();
      const health = await fetch(`http://127.0.0.1:${first.port}/health`);
      assert.equal(health.status, 200);
      await health.body?.cancel();
      await first.stop();
      assert.ok((await Deno.stat(`${dir}/files`)).isDirectory, "files root created next to the database");
      const second = await startServer(["--database", `${dir}/db.kv`], {});
      await second.stop();
      assert.ok(!/password/i.test(second.log()), second.log());
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "FB_ADMIN_USERNAME / FB_ADMIN_PASSWORD set the first admin for unattended installs",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const s = await startServer(["--database", `${dir}/db.kv`], {
        FB_ADMIN_USERNAME: "root",
        FB_ADMIN_PASSWORD: "unattended-pass-1",
      });
      const login = await fetch(`http://127.0.0.1:${s.port}/api/login`, {
        method: "POST",
        body: JSON.stringify({ username: "root", password: "unattended-pass-1" }),
      });
      assert.equal(login.status, 200);
      await login.body?.cancel();
      await s.stop();
      assert.ok(!s.log().includes("unattended-pass-1"));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("proxy auth trusts the header only from a trusted proxy address", async () => {
  const t = await testApp({
    config: { authMethod: "proxy", authHeader: "X-Fb-User", trustedProxies: ["127.0.0.1"] },
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
  try {
    const url = `http://127.0.0.1:${server.addr.port}/api/login`;
    const ok = await fetch(url, { method: "POST", headers: { "X-Fb-User": "proxied" } });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    const created = await users.findUserByName(t.deps.kv, "proxied");
    assert.ok(created);
    assert.equal(created.perm.admin, false);
    assert.equal(created.perm.execute, false);
    assert.equal(created.lockPassword, true);
    // In-process requests have no trusted peer address: the header must be ignored.
    const untrusted = await t.app.request("/api/login", {
      method: "POST",
      headers: { "X-Fb-User": "admin" },
    });
    assert.equal(untrusted.status, 403);
  } finally {
    await server.shutdown();
    await t.close();
  }
});

Deno.test("noauth logs everyone in as user 1", async () => {
  const t = await testApp({ config: { authMethod: "noauth" } });
  try {
    const res = await t.app.request("/api/login", { method: "POST" });
    assert.equal(res.status, 200);
    const token = await res.text();
    const me = await t.app.request("/api/users/1", { headers: { "X-Auth": token } });
    assert.equal((await me.json()).username, "admin");
  } finally {
    await t.close();
  }
});
