/** `deno task users` as a real subprocess against a temp KV file, alone and next to a running server. */
import assert from "node:assert/strict";
import { users } from "../../lib/storage/mod.ts";
import { verifyPassword } from "../../lib/auth/passwords.ts";
import { httpLogin, runTask, startServer } from "./_process.ts";
import type { AuditEntry } from "../../lib/types.ts";

async function withDatabase(fn: (db: string, dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fb-users-cli-" });
  try {
    const kv = await Deno.openKv(`${dir}/db.kv`);
    kv.close();
    await fn(`${dir}/db.kv`, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function readUsers(db: string) {
  const kv = await Deno.openKv(db);
  try {
    return await users.listUsers(kv);
  } finally {
    kv.close();
  }
}

Deno.test({
  name: "deno task users: add, ls, update and rm with the server's rules",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withDatabase(async (db, dir) => {
      const cli = (...args: string[]) => runTask("users", [...args, "--database", db]);
      const added = await cli("add", "root", "--password", "a-long-password-1", "--admin");
      assert.equal(added.code, 0, added.stderr);
      assert.match(added.stdout, /added "root" \(id 1, admin, scope \/\)/);
      const bob = await cli(
        "add",
        "bob",
        "--password",
        "a-long-password-2",
        "--scope",
        "/bob",
        "--root",
        `${dir}/r`,
      );
      assert.equal(bob.code, 0, bob.stderr);
      assert.ok((await Deno.stat(`${dir}/r/bob`)).isDirectory, "the scope folder is made under --root");
      const ls = await cli("ls");
      assert.equal(ls.code, 0);
      assert.deepEqual(ls.stdout.trim().split("\n").map((l) => l.trim().split(/\s+/)), [
        ["1", "admin", "root", "/"],
        ["2", "user", "bob", "/bob"],
      ]);

      const refused: [string[], RegExp][] = [
        [["add", "eve", "--password", "short"], /too short, minimum length is 12/],
        [["add", "Bob", "--password", "a-long-password-3"], /username taken/],
        [["add", "ev\u200Be", "--password", "a-long-password-3"], /U\+200B/],
        [["add", " eve", "--password", "a-long-password-3"], /whitespace/],
        [["update", "bob", "--password", "short"], /too short/],
        [["update", "nobody", "--admin"], /No user "nobody"/],
        [["update", "root", "--no-admin"], /last admin/],
        [["rm", "root"], /last admin/],
      ];
      for (const [args, message] of refused) {
        const res = await cli(...args);
        assert.equal(res.code, 1, args.join(" "));
        assert.equal(res.errorLines.length, 1, res.stderr);
        assert.match(res.errorLines[0], message);
      }

      // The password from stdin keeps it out of the process list and of `deno task`'s echo.
      const upd = await runTask("users", ["update", "bob", "--password", "-", "--admin", "--database", db], {
        stdin: "a-new-long-password\n",
      });
      assert.equal(upd.code, 0, upd.stderr);
      const stored = (await readUsers(db)).find((u) => u.username === "bob")!;
      assert.equal(stored.perm.admin, true);
      assert.equal(stored.perm.execute, true, "--admin grants every permission, as the user form does");
      assert.equal(await verifyPassword("a-new-long-password", stored.passwordHash), true);
      assert.equal((await cli("update", "root", "--no-admin")).code, 0, "bob is an admin now");
      assert.equal((await cli("rm", "root")).code, 0);
      assert.deepEqual((await readUsers(db)).map((u) => u.username), ["bob"]);
      // Every change is in the audit log, from the client "cli", with the names of the changed fields only.
      const kv = await Deno.openKv(db);
      try {
        const log = [];
        for await (const e of kv.list<AuditEntry>({ prefix: ["audit"] })) log.push(e.value);
        assert.deepEqual(log.map((e) => [e.action, e.target, e.detail, e.client]), [
          ["user.create", "user:1", "root", "cli"],
          ["user.create", "user:2", "bob", "cli"],
          ["user.update", "user:2", "password perm", "cli"],
          ["user.update", "user:1", "perm", "cli"],
          ["user.delete", "user:1", "root", "cli"],
        ]);
      } finally {
        kv.close();
      }
    });
  },
});

Deno.test({
  name: "deno task users: usage errors exit 2, a missing database exits 1 and is not created",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withDatabase(async (db, dir) => {
      const usage: string[][] = [
        [],
        ["frob"],
        ["add"],
        ["add", "eve"],
        ["update", "eve"],
        ["rm", "a", "b"],
        ["ls", "--bogus"],
        ["ls", "--min-password-length", "x"],
        ["add", "eve", "--password"],
      ];
      for (const args of usage) {
        const res = await runTask("users", [...args, "--database", db]);
        assert.equal(res.code, 2, `${args.join(" ")}: ${res.stderr}`);
        assert.equal(res.errorLines.length, 1, res.stderr);
      }
      const help = await runTask("users", ["--help"]);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /add NAME --password P/);
      const missing = await runTask("users", ["ls", "--database", `${dir}/typo.kv`]);
      assert.equal(missing.code, 1);
      assert.match(missing.errorLines[0], /--database ".*typo\.kv": no such file/);
      assert.equal(await Deno.stat(`${dir}/typo.kv`).then(() => true, () => false), false);
    });
  },
});

Deno.test({
  name: "deno task users works while the server runs: a new password logs in and ends the old sessions",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "fb-users-cli-" });
    const db = `${dir}/db.kv`;
    const s = await startServer(["--database", db], { FB_ADMIN_PASSWORD: "first-admin-pass-1" });
    try {
      assert.ok(s.port > 0, s.log());
      const before = await httpLogin(s.port, "admin", "first-admin-pass-1");
      assert.equal(before.status, 200);
      const me = () =>
        fetch(`http://127.0.0.1:${s.port}/api/users/1`, { headers: { "X-Auth": before.text } })
          .then(async (r) => (await r.body?.cancel(), r.status));
      assert.equal(await me(), 200);
      const upd = await runTask("users", [
        "update",
        "admin",
        "--password",
        "second-admin-pass-2",
        "--database",
        db,
      ]);
      assert.equal(upd.code, 0, upd.stderr);
      // The server caches sessions; a write from another process reaches it within about a second.
      const deadline = Date.now() + 10_000;
      while (await me() !== 401 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.equal(await me(), 401, "the old session has ended");
      assert.equal((await httpLogin(s.port, "admin", "first-admin-pass-1")).status, 403);
      assert.equal((await httpLogin(s.port, "admin", "second-admin-pass-2")).status, 200);
      const add = await runTask("users", [
        "add",
        "carol",
        "--password",
        "carol-password-3",
        "--database",
        db,
      ]);
      assert.equal(add.code, 0, add.stderr);
      assert.equal((await httpLogin(s.port, "carol", "carol-password-3")).status, 200);
    } finally {
      await s.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
