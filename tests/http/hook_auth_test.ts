/** Hook authentication (`--auth hook`, docs/commands.md) through POST /api/login, decided by a small shell script. */
import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import type { TestApp } from "../_helpers.ts";
import { users } from "../../lib/storage/mod.ts";
import { verifyPassword } from "../../lib/auth/passwords.ts";

const SCRIPT = `#!/bin/sh
case "$USERNAME" in
  newbie)
    [ "$PASSWORD" = "pw-newbie" ] || { echo hook.action=block; exit 0; }
    printf 'hook.action=auth\\r\\nuser.perm.create=true\\n  user.commands = ls echo \\nuser.viewMode=list\\n'
    echo "user.perm.execute=yes"
    echo "unknown.key=x"
    echo "not a key value line" ;;
  boss) printf 'hook.action=auth\\nuser.perm.admin=true\\nuser.scope=bosses/../bosses/boss\\n' ;;
  anypw) echo hook.action=auth ;;
  local) echo hook.action=pass ;;
  blocked) echo hook.action=block ;;
  failing) echo "hook.action=auth"; exit 1 ;;
  weird) echo hook.action=maybe ;;
  envcheck) echo hook.action=auth; echo "user.locale=$(env | cut -d= -f1 | sort | tr '\\n' ,)$#:$1" ;;
  slow) sleep 0.2; echo hook.action=auth ;;
  café) echo hook.action=auth ;;
  nl*|" "*) printf 'hook.action=auth\nuser.viewMode=%s\n' "$USERNAME" ;;
esac
`;

async function withHookAuth(fn: (t: TestApp) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "fb-authhook-" });
  await Deno.writeTextFile(`${dir}/auth.sh`, SCRIPT);
  await Deno.chmod(`${dir}/auth.sh`, 0o755);
  const t = await testApp({
    config: { authMethod: "hook", authCommand: `${dir}/auth.sh --from-filebrowser` },
    users: [{ username: "local", perm: { create: true } }],
  });
  try {
    await fn(t);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function login(t: TestApp, username: string, password: string): Promise<Response> {
  return await t.request("/api/login", { method: "POST", body: JSON.stringify({ username, password }) });
}

async function status(t: TestApp, username: string, password: string): Promise<number> {
  const r = await login(t, username, password);
  await r.body?.cancel();
  return r.status;
}

Deno.test("hook auth: action auth creates the user from the defaults and the hook's fields", async () => {
  await withHookAuth(async (t) => {
    const r = await login(t, "newbie", "pw-newbie");
    assert.equal(r.status, 200);
    assert.equal((await r.text()).split(".").length, 3);
    const u = await users.findUserByName(t.deps.kv, "newbie");
    assert.ok(u);
    assert.equal(u.perm.create, true);
    assert.equal(u.perm.execute, false, "only exactly true is true");
    assert.equal(u.perm.admin, false);
    assert.deepEqual(u.commands, ["ls", "echo"]);
    assert.equal(u.viewMode, "list");
    assert.equal(u.lockPassword, true);
    assert.ok(await verifyPassword("pw-newbie", u.passwordHash));
    assert.equal(await status(t, "newbie", "wrong"), 403, "the hook blocks a wrong password");
  });
});

Deno.test("hook auth: an admin from the hook gets every permission and the hook's scope", async () => {
  await withHookAuth(async (t) => {
    assert.equal(await status(t, "boss", "x"), 200);
    const u = await users.findUserByName(t.deps.kv, "boss");
    assert.ok(u && Object.values(u.perm).every((v) => v === true));
    assert.equal(u.scope, "/bosses/boss");
    assert.ok((await Deno.stat(`${t.root}/bosses/boss`)).isDirectory);
  });
});

Deno.test("hook auth: a changed password updates the stored user", async () => {
  await withHookAuth(async (t) => {
    assert.equal(await status(t, "anypw", "first-password"), 200);
    assert.equal(await status(t, "anypw", "second-password"), 200);
    const u = await users.findUserByName(t.deps.kv, "anypw");
    assert.ok(u && await verifyPassword("second-password", u.passwordHash));
    assert.equal((await users.listUsers(t.deps.kv)).filter((x) => x.username === "anypw").length, 1);
  });
});

Deno.test("hook auth: pass checks the stored password; block, a failing hook and unknown users are refused", async () => {
  await withHookAuth(async (t) => {
    assert.equal(await status(t, "local", TEST_PASSWORD), 200);
    assert.equal(await status(t, "local", "wrong"), 403);
    assert.equal(await status(t, "blocked", "x"), 403);
    assert.equal(await status(t, "failing", "x"), 403);
    assert.equal(await status(t, "nobody", "x"), 500, "no action at all is the script's bug");
    assert.equal(await status(t, "weird", "x"), 500);
    assert.equal(await users.findUserByName(t.deps.kv, "failing"), null);
  });
});

Deno.test("hook auth: credentials go in the environment only, with the small environment", async () => {
  Deno.env.set("FB_EXEC_TEST_SECRET", "server-secret");
  try {
    await withHookAuth(async (t) => {
      assert.equal(await status(t, "envcheck", "p@ss word"), 200);
      const u = await users.findUserByName(t.deps.kv, "envcheck");
      assert.equal(u?.locale, "HOME,LANG,PASSWORD,PATH,PWD,USERNAME,1:--from-filebrowser");
    });
  } finally {
    Deno.env.delete("FB_EXEC_TEST_SECRET");
  }
});

Deno.test("hook auth: parallel first logins create the user once (real parallel requests)", async () => {
  await withHookAuth(async (t) => {
    const codes = await Promise.all(Array.from({ length: 5 }, () => status(t, "slow", "same-password")));
    assert.deepEqual(codes, [200, 200, 200, 200, 200]);
    assert.equal((await users.listUsers(t.deps.kv)).filter((x) => x.username === "slow").length, 1);
  });
});

Deno.test("hook auth: a username that breaks the username rules is refused (403) before the hook runs", async () => {
  await withHookAuth(async (t) => {
    // A script that echoes the name would otherwise print the injected line itself.
    for (const name of ["nl\nuser.perm.admin=true", "nl\ruser.perm.admin=true", " nl", "nl ", "nl\u200b"]) {
      const r = await login(t, name, "x");
      assert.equal(r.status, 403, JSON.stringify(name));
      await r.body?.cancel();
    }
    assert.deepEqual(
      (await users.listUsers(t.deps.kv)).map((u) => [u.username, u.perm.admin]),
      [["admin", true], ["local", false]],
    );
  });
});

Deno.test("hook auth: the hook sees the NFC form of the username, which the user is stored under", async () => {
  await withHookAuth(async (t) => {
    assert.equal(await status(t, "cafe\u0301", "x"), 200);
    assert.ok(await users.findUserByName(t.deps.kv, "café"));
    assert.equal(await status(t, "café", "x"), 200);
    assert.equal((await users.listUsers(t.deps.kv)).filter((u) => u.username === "café").length, 1);
  });
});
