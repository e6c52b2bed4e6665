import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import { users } from "../../lib/storage/mod.ts";
import { freePort, httpLogin, runTask, startServer } from "./_process.ts";

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

/** Asserts a start-up failure: exit code 2 and one line (no stack trace) matching every pattern. */
function assertStartFailure(result: Awaited<ReturnType<typeof runTask>>, ...patterns: RegExp[]): void {
  assert.equal(result.code, 2, result.stderr + result.stdout);
  assert.equal(result.errorLines.length, 1, result.stderr);
  for (const p of patterns) assert.match(result.errorLines[0], p);
  assert.doesNotMatch(result.stderr + result.stdout, /^\s+at /m, "no stack trace");
  assert.doesNotMatch(result.stdout, /created admin|password:/, "no admin was created");
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test({
  name: "a port in use is one line naming --port, exit code 2, and nothing is written",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const busy = Deno.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const port = (busy.addr as Deno.NetAddr).port;
      const res = await runTask("start", ["--port", String(port), "--database", `${dir}/data/db.kv`]);
      assertStartFailure(res, new RegExp(`--port ${port}\\b`), /in use/i);
      assert.equal(await exists(`${dir}/data`), false, "no database, no folders");
    } finally {
      busy.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "a root, database or folder that cannot be created is one line naming the flag and path, exit code 2, nothing left",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${dir}/file`, "");
      const cases: [string[], RegExp[]][] = [
        [["--database", `${dir}/data/db.kv`, "--root", `${dir}/file/root`], [/--root/, /file\/root"/]],
        [["--database", `${dir}/data/db.kv`, "--root", `${dir}/file`], [/--root/, /not a directory/]],
        [["--database", `${dir}/file/db.kv`, "--root", `${dir}/data/root`], [/--database/, /file\/db\.kv"/]],
        [["--database", `${dir}/data/db.kv`, "--cache-dir", `${dir}/file/c`], [/--cache-dir/, /file\/c"/]],
        // mkdir itself fails here (even for root): the folders made before it are removed again.
        [["--database", `${dir}/data/db.kv`, "--upload-dir", "/sys/fb-no-such/up"], [
          /--upload-dir/,
          /fb-no-such/,
        ]],
      ];
      for (const [args, patterns] of cases) {
        const res = await runTask("start", ["--port", "0", ...args]);
        assertStartFailure(res, ...patterns);
        assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["file"], args.join(" "));
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "FB_ADMIN_PASSWORD shorter than the minimum is refused at first start: one line, exit code 2, nothing written",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const env = { FB_ADMIN_PASSWORD: "short-pw" };
      const res = await runTask("start", ["--port", "0", "--database", `${dir}/data/db.kv`], { env });
      assertStartFailure(res, /FB_ADMIN_PASSWORD/, /too short, minimum length is 12/);
      assert.equal(await exists(`${dir}/data`), false);
      // An existing but empty database is a first start too: nothing is written into it.
      const kv = await Deno.openKv(`${dir}/empty.kv`);
      kv.close();
      const again = await runTask("start", ["--port", "0", "--database", `${dir}/empty.kv`], { env });
      assertStartFailure(again, /FB_ADMIN_PASSWORD/);
      const check = await Deno.openKv(`${dir}/empty.kv`);
      try {
        assert.equal((await check.get(["settings"])).value, null);
        assert.deepEqual(await users.listUsers(check), []);
      } finally {
        check.close();
      }
      const longer = await runTask("start", ["--port", "0", "--database", `${dir}/data/db.kv`, "--help"], {
        env,
      });
      assert.equal(longer.code, 0, "--help still works");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "the generated admin password is shown even with --log-level warn",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const port = freePort();
    const s = await startServer(
      ["--port", String(port), "--log-level", "warn", "--database", `${dir}/db.kv`],
      {},
    );
    try {
      const pw = s.log().match(/password: (\S+)/)?.[1];
      assert.ok(pw, s.log());
      assert.doesNotMatch(s.log(), /INFO/);
      assert.equal((await httpLogin(port, "admin", pw)).status, 200);
    } finally {
      await s.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
