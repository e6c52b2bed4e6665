import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import { verifyAppPassword } from "../../lib/auth/app_passwords.ts";
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
