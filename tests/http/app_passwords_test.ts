import assert from "node:assert/strict";
import { TEST_PASSWORD, type TestApp, testApp } from "../_helpers.ts";
import { createAppPassword, verifyAppPassword } from "../../lib/auth/app_passwords.ts";
import { accountContext, updateAccount } from "../../lib/user_admin.ts";
import { totpCode } from "../../lib/auth/totp.ts";

function send(method: string, body: unknown, as?: string): RequestInit & { as?: string } {
  return { method, body: JSON.stringify(body), headers: { "Content-Type": "application/json" }, as };
}

Deno.test("app passwords: create (with the current password), list, revoke", async () => {
  const t = await testApp({ users: [{ username: "alice" }, { username: "bob" }] });
  try {
    const refused = await t.request("/api/apppasswords", send("POST", { name: "dav" }, "alice"));
    assert.equal(refused.status, 400);
    const made = await t.request(
      "/api/apppasswords",
      send("POST", { name: "dav", current_password: TEST_PASSWORD }, "alice"),
    );
    assert.equal(made.status, 201);
    assert.match(made.headers.get("Content-Type") ?? "", /^application\/json/);
    const created = await made.json();
    assert.match(created.password, /^fbap_/);
    const list = await (await t.request("/api/apppasswords", { as: "alice" })).json();
    assert.deepEqual(list, [{ id: created.id, name: "dav", created: created.created, lastUsed: null }]);
    assert.deepEqual(await (await t.request("/api/apppasswords", { as: "bob" })).json(), []);
    assert.ok(await verifyAppPassword(t.deps.kv, t.users.alice, created.password));
    assert.equal(await verifyAppPassword(t.deps.kv, t.users.bob, created.password), null);

    const bobDelete = await t.request(`/api/apppasswords/${created.id}`, { method: "DELETE", as: "bob" });
    assert.equal(bobDelete.status, 404);
    const del = await t.request(`/api/apppasswords/${created.id}`, { method: "DELETE", as: "alice" });
    assert.equal(del.status, 200);
    assert.equal(await verifyAppPassword(t.deps.kv, t.users.alice, created.password), null);
    assert.deepEqual(await (await t.request("/api/apppasswords", { as: "alice" })).json(), []);
  } finally {
    await t.close();
  }
});

Deno.test("app passwords: hostile names and ids never give a 500", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  try {
    for (const name of ["", " ", "a\nb", "x".repeat(101), 5, null, ["a"]]) {
      const res = await t.request(
        "/api/apppasswords",
        send("POST", { name, current_password: TEST_PASSWORD }, "alice"),
      );
      assert.equal(res.status, 400, JSON.stringify(name));
      await res.body?.cancel();
    }
    for (const id of ["nope", "..", "%2e%2e", "x".repeat(3000), "%00"]) {
      const res = await t.request(`/api/apppasswords/${id}`, { method: "DELETE", as: "alice" });
      assert.equal(res.status, 404, id.slice(0, 20));
      await res.body?.cancel();
    }
    assert.equal((await t.request("/api/apppasswords")).status, 401);
    const bad = await t.request("/api/apppasswords", { method: "POST", body: "{", as: "alice" });
    assert.equal(bad.status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/login takes an app password only when appPasswordsForLogin is on, without a code", async () => {
  const t = await testApp({ users: [{ username: "alice" }], config: { loginRateLimit: 50 } });
  try {
    const made = await (await t.request(
      "/api/apppasswords",
      send("POST", { name: "script", current_password: TEST_PASSWORD }, "alice"),
    )).json();
    const login = () => t.request("/api/login", send("POST", { username: "alice", password: made.password }));
    assert.equal((await login()).status, 403);

    const settings = await (await t.request("/api/settings", { as: "admin" })).json();
    const put = await t.request(
      "/api/settings",
      send("PUT", { ...settings, appPasswordsForLogin: true }, "admin"),
    );
    assert.equal(put.status, 200);
    // With two-factor login on, the app password still logs in without a code (that is what it is for).
    const start = await (await t.request(
      "/api/twofa/enroll",
      send("POST", { current_password: TEST_PASSWORD }, "alice"),
    )).json();
    const conf = await t.request(
      "/api/twofa/confirm",
      send("POST", { code: totpCode(start.secret, Date.now()) }, "alice"),
    );
    assert.equal(conf.status, 200);
    const ok = await login();
    assert.equal(ok.status, 200);
    assert.equal((await ok.text()).split(".").length, 3);
    // The account password still needs the code.
    const pw = await t.request("/api/login", send("POST", { username: "alice", password: TEST_PASSWORD }));
    assert.equal(pw.status, 401);
    // Another user's app password is no use.
    const other = await t.request("/api/login", send("POST", { username: "admin", password: made.password }));
    assert.equal(other.status, 403);
    const listed = await (await t.request("/api/apppasswords", { as: "alice" })).json();
    assert.notEqual(listed[0].lastUsed, null);
  } finally {
    await t.close();
  }
});

Deno.test("deleting a user removes their app passwords and two-factor state", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  try {
    const made = await (await t.request(
      "/api/apppasswords",
      send("POST", { name: "x", current_password: TEST_PASSWORD }, "alice"),
    )).json();
    const del = await t.request(
      `/api/users/${t.users.alice.id}`,
      send("DELETE", { current_password: TEST_PASSWORD }, "admin"),
    );
    assert.equal(del.status, 200);
    assert.equal(await verifyAppPassword(t.deps.kv, t.users.alice, made.password), null);
  } finally {
    await t.close();
  }
});

/** An app password of `as` and a token from logging in with it (appPasswordsForLogin must be on). */
async function appPasswordSession(
  t: TestApp,
  as: string,
): Promise<{ id: string; password: string; token: string }> {
  const made = await (await t.request(
    "/api/apppasswords",
    send("POST", { name: "script", current_password: TEST_PASSWORD }, as),
  )).json();
  const login = await t.request("/api/login", send("POST", { username: as, password: made.password }));
  assert.equal(login.status, 200);
  return { id: made.id, password: made.password, token: await login.text() };
}

async function statusWith(
  t: TestApp,
  token: string,
  path = "/api/resources/",
  method = "GET",
): Promise<number> {
  const res = await t.request(path, { method, headers: { "X-Auth": token } });
  await res.body?.cancel();
  return res.status;
}

Deno.test("a session opened with an app password is 401 right after revocation and never renewed", async () => {
  const t = await testApp({
    users: [{ username: "alice" }],
    settings: { appPasswordsForLogin: true },
    config: { loginRateLimit: 50 },
  });
  try {
    const own = await appPasswordSession(t, "alice");
    const byAdmin = await appPasswordSession(t, "alice");
    const fromPassword = await (await t.request(
      "/api/login",
      send("POST", { username: "alice", password: TEST_PASSWORD }),
    )).text();
    const res = await t.request("/api/resources/", { headers: { "X-Auth": own.token } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("X-Renew-Token"), null, "nothing asks an app-password session to renew");
    await res.body?.cancel();
    assert.equal(await statusWith(t, own.token, "/api/renew", "POST"), 403);
    assert.equal(
      await statusWith(t, fromPassword, "/api/renew", "POST"),
      200,
      "password sessions still renew",
    );

    const revoke = await t.request(`/api/apppasswords/${own.id}`, { method: "DELETE", as: "alice" });
    assert.equal(revoke.status, 200);
    assert.equal(await statusWith(t, own.token), 401, "the revoked app password's session ends at once");
    assert.equal(await statusWith(t, byAdmin.token), 200, "another app password's session goes on");
    assert.equal(await statusWith(t, fromPassword), 200, "a password session goes on");

    const adminRevoke = await t.request(`/api/users/${t.users.alice.id}/apppasswords/${byAdmin.id}`, {
      method: "DELETE",
      as: "admin",
    });
    assert.equal(adminRevoke.status, 200);
    assert.equal(await statusWith(t, byAdmin.token), 401, "an admin's revocation ends the session too");
  } finally {
    await t.close();
  }
});

Deno.test("a password change (own, an admin's or the command line's) ends every app password and its sessions", async () => {
  const t = await testApp({
    users: [{ username: "alice" }],
    settings: { appPasswordsForLogin: true },
    config: { loginRateLimit: 50 },
  });
  try {
    const first = await appPasswordSession(t, "alice");
    const change = (as: string, password: string) =>
      t.request(
        `/api/users/${t.users.alice.id}`,
        send("PUT", {
          what: "user",
          which: ["password"],
          current_password: TEST_PASSWORD,
          data: { id: t.users.alice.id, password },
        }, as),
      );
    assert.equal((await change("alice", "a-new-long-password-1")).status, 200);
    assert.equal(await verifyAppPassword(t.deps.kv, t.users.alice, first.password), null);
    assert.equal(await statusWith(t, first.token), 401);
    assert.equal(await statusWith(t, t.tokens.alice), 200, "the session that changed the password stays");
    assert.deepEqual(await (await t.request("/api/apppasswords", { as: "alice" })).json(), []);

    // An empty password keeps the old one, and the app passwords.
    const made = await (await t.request(
      "/api/apppasswords",
      send("POST", { name: "x", current_password: "a-new-long-password-1" }, "alice"),
    )).json();
    const keep = await t.request(
      `/api/users/${t.users.alice.id}`,
      send("PUT", {
        what: "user",
        which: ["password", "locale"],
        current_password: "a-new-long-password-1",
        data: { id: t.users.alice.id, password: "", locale: "de" },
      }, "alice"),
    );
    assert.equal(keep.status, 200);
    assert.ok(await verifyAppPassword(t.deps.kv, t.users.alice, made.password));
    assert.equal((await change("admin", "a-new-long-password-2")).status, 200);
    assert.equal(await verifyAppPassword(t.deps.kv, t.users.alice, made.password), null, "an admin's reset");

    const cli = await createAppPassword(t.deps.kv, t.users.alice.id, { name: "cli", now: Date.now() });
    const ctx = await accountContext(t.deps.kv, t.deps.config);
    await updateAccount(ctx, "alice", { password: "a-new-long-password-3" });
    assert.equal(await verifyAppPassword(t.deps.kv, t.users.alice, cli.password), null, "deno task users");
  } finally {
    await t.close();
  }
});

Deno.test("admins list and revoke a user's app passwords; others cannot", async () => {
  const t = await testApp({ users: [{ username: "alice" }, { username: "bob" }] });
  try {
    const a = await createAppPassword(t.deps.kv, t.users.alice.id, { name: "one", now: 1000 });
    await createAppPassword(t.deps.kv, t.users.alice.id, { name: "two", now: 2000 });
    const path = `/api/users/${t.users.alice.id}/apppasswords`;
    const list = await t.request(path, { as: "admin" });
    assert.equal(list.status, 200);
    assert.match(list.headers.get("Content-Type") ?? "", /^application\/json/);
    assert.deepEqual((await list.json()).map((p: { name: string }) => p.name), ["one", "two"]);
    assert.equal(
      await statusWith(t, t.tokens.alice, path),
      403,
      "not even the owner through the admin route",
    );
    assert.equal(await statusWith(t, t.tokens.bob, path), 403);
    assert.equal((await t.request(path)).status, 401);
    assert.equal(await statusWith(t, t.tokens.bob, `${path}/${a.id}`, "DELETE"), 403);
    assert.equal(await statusWith(t, t.tokens.admin, "/api/users/999/apppasswords"), 404);
    assert.equal(await statusWith(t, t.tokens.admin, `${path}/nope`, "DELETE"), 404);
    assert.equal(await statusWith(t, t.tokens.admin, `${path}/${a.id}`, "DELETE"), 200);
    assert.equal(await verifyAppPassword(t.deps.kv, t.users.alice, a.password), null);
    const all = await t.request(path, { method: "DELETE", as: "admin" });
    assert.equal(all.status, 200);
    assert.deepEqual(await all.json(), { revoked: 1 });
    assert.deepEqual(await (await t.request("/api/apppasswords", { as: "alice" })).json(), []);
    // The owner's own "revoke all".
    await createAppPassword(t.deps.kv, t.users.bob.id, { name: "b", now: 1 });
    const own = await t.request("/api/apppasswords", { method: "DELETE", as: "bob" });
    assert.deepEqual(await own.json(), { revoked: 1 });
  } finally {
    await t.close();
  }
});

Deno.test("an account with a locked password creates no app password and enrols no authenticator", async () => {
  const t = await testApp({ users: [{ username: "shared", lockPassword: true }] });
  try {
    const body = { name: "x", current_password: TEST_PASSWORD };
    assert.equal((await t.request("/api/apppasswords", send("POST", body, "shared"))).status, 403);
    assert.equal((await t.request("/api/twofa/enroll", send("POST", body, "shared"))).status, 403);
    assert.equal(
      (await t.request("/api/twofa/confirm", send("POST", { code: "123456" }, "shared"))).status,
      403,
    );
    assert.deepEqual(await (await t.request("/api/apppasswords", { as: "shared" })).json(), []);
  } finally {
    await t.close();
  }
});
