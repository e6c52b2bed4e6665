import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import { users } from "../../lib/storage/mod.ts";

/** Every test user's password is TEST_PASSWORD: the requester re-authenticates with it. */
const REAUTH = JSON.stringify({ current_password: TEST_PASSWORD });

const put = (id: number, which: string[], data: Record<string, unknown>) => ({
  method: "PUT",
  body: JSON.stringify({ what: "user", which, current_password: TEST_PASSWORD, data: { id, ...data } }),
});

Deno.test("GET /api/users: anonymous 401, user 403, admin gets every user with blank passwords", async () => {
  const t = await testApp({ users: [{ username: "alice", perm: { download: true } }] });
  try {
    assert.equal((await t.request("/api/users")).status, 401);
    assert.equal((await t.request("/api/users", { as: "alice" })).status, 403);
    const res = await t.request("/api/users", { as: "admin" });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("Content-Type") ?? "", /application\/json/);
    const list = await res.json();
    assert.deepEqual(list.map((u: { username: string }) => u.username), ["admin", "alice"]);
    assert.ok(list.every((u: { password: string }) => u.password === ""));
    assert.ok(!JSON.stringify(list).includes("passwordHash"));
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/users/{id}: self sees own record without scope, others are 403, unknown ids 404", async () => {
  const t = await testApp({ users: [{ username: "alice", scope: "/alice" }, { username: "bob" }] });
  try {
    const self = await t.request(`/api/users/${t.users.alice.id}`, { as: "alice" });
    assert.equal(self.status, 200);
    const body = await self.json();
    assert.equal(body.username, "alice");
    assert.equal(body.scope, "");
    assert.equal((await t.request(`/api/users/${t.users.bob.id}`, { as: "alice" })).status, 403);
    assert.equal((await t.request(`/api/users/${t.users.alice.id}`)).status, 401);
    const asAdmin = await (await t.request(`/api/users/${t.users.alice.id}`, { as: "admin" })).json();
    assert.equal(asAdmin.scope, "/alice");
    assert.equal((await t.request(`/api/users/999`, { as: "admin" })).status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/users: admin creates (201 + Location), others 403, bad input 400, duplicates 409", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  try {
    const body = (data: Record<string, unknown>) =>
      JSON.stringify({ what: "user", which: [], current_password: TEST_PASSWORD, data: { id: 0, ...data } });
    const ok = { username: "newbie", password: "a-long-password-1", perm: { download: true, share: true } };
    assert.equal((await t.request("/api/users", { method: "POST", body: body(ok) })).status, 401);
    assert.equal(
      (await t.request("/api/users", { method: "POST", as: "alice", body: body(ok) })).status,
      403,
    );
    const res = await t.request("/api/users", { method: "POST", as: "admin", body: body(ok) });
    assert.equal(res.status, 201);
    assert.equal(await res.text(), "201 Created\n");
    const created = await users.findUserByName(t.deps.kv, "newbie");
    assert.equal(res.headers.get("Location"), `/settings/users/${created!.id}`);
    assert.equal(created!.scope, "/");
    assert.equal(
      (await t.request("/api/users", { method: "POST", as: "admin", body: body(ok) })).status,
      409,
    );
    const noPw = await t.request("/api/users", {
      method: "POST",
      as: "admin",
      body: body({ username: "x", password: "" }),
    });
    assert.equal(noPw.status, 400);
    assert.equal(await noPw.text(), "400 Bad Request (password is empty)\n");
    const share = await t.request("/api/users", {
      method: "POST",
      as: "admin",
      body: body({ username: "y", password: "a-long-password-1", perm: { share: true, download: false } }),
    });
    assert.equal(share.status, 400);
    assert.match(await share.text(), /share requires permission to download/);
    const wrongWhat = await t.request("/api/users", {
      method: "POST",
      as: "admin",
      body: JSON.stringify({ what: "x", data: ok }),
    });
    assert.equal(wrongWhat.status, 400);
    assert.equal((await t.request("/api/users", { method: "POST", as: "admin", body: "{bad" })).status, 400);
    assert.equal((await users.listUsers(t.deps.kv)).length, 3);
  } finally {
    await t.close();
  }
});

Deno.test("PUT /api/users/{id}: users edit their preferences but not their permissions or other users", async () => {
  const t = await testApp({ users: [{ username: "alice" }, { username: "bob" }] });
  try {
    const id = t.users.alice.id;
    const prefs = await t.request(`/api/users/${id}`, {
      as: "alice",
      ...put(id, ["locale", "hideDotfiles", "viewMode"], {
        locale: "de",
        hideDotfiles: true,
        viewMode: "list",
      }),
    });
    assert.equal(prefs.status, 200);
    const stored = await users.getUser(t.deps.kv, id);
    assert.equal(stored.locale, "de");
    assert.equal(stored.hideDotfiles, true);
    assert.equal(stored.viewMode, "list");
    assert.equal(
      (await t.request(`/api/users/${id}`, { as: "alice", ...put(id, ["perm"], { perm: { admin: true } }) }))
        .status,
      403,
    );
    assert.equal(
      (await t.request(`/api/users/${id}`, { as: "alice", ...put(id, ["all"], { username: "alice" }) }))
        .status,
      403,
    );
    assert.equal(
      (await t.request(`/api/users/${id}`, { as: "alice", ...put(id, ["scope"], { scope: "/" }) })).status,
      403,
    );
    const other = t.users.bob.id;
    assert.equal(
      (await t.request(`/api/users/${other}`, { as: "alice", ...put(other, ["locale"], { locale: "fr" }) }))
        .status,
      403,
    );
    assert.equal(
      (await t.request(`/api/users/${id}`, { as: "alice", ...put(999, ["locale"], { locale: "fr" }) }))
        .status,
      400,
    );
    assert.equal(
      (await t.request(`/api/users/${id}`, { as: "alice", ...put(id, ["nonsense"], {}) })).status,
      400,
    );
    assert.equal(
      (await t.request(`/api/users/${id}`, { as: "alice", method: "PUT", body: "[1" })).status,
      400,
    );
    assert.equal((await users.getUser(t.deps.kv, id)).perm.admin, false);
  } finally {
    await t.close();
  }
});

Deno.test("PUT /api/users/{id}: a locked password cannot be changed by its owner; admins replace whole records", async () => {
  const t = await testApp({ users: [{ username: "alice", lockPassword: true }] });
  try {
    const id = t.users.alice.id;
    const res = await t.request(`/api/users/${id}`, {
      as: "alice",
      ...put(id, ["password"], { password: "another-long-pass" }),
    });
    assert.equal(res.status, 403);
    const all = await t.request(`/api/users/${id}`, {
      as: "admin",
      ...put(id, ["all"], {
        username: "alice2",
        scope: "/data",
        perm: { create: true },
        rules: [{ regex: true, allow: false, path: "", regexp: { raw: "\\.secret$" } }],
      }),
    });
    assert.equal(all.status, 200);
    const u = await users.getUser(t.deps.kv, id);
    assert.equal(u.username, "alice2");
    assert.equal(u.scope, "/data");
    assert.equal(u.perm.create, true);
    assert.equal(u.rules.length, 1);
    const badRule = await t.request(`/api/users/${id}`, {
      as: "admin",
      ...put(id, ["rules"], { rules: [{ regex: true, allow: false, path: "", regexp: { raw: "([" } }] }),
    });
    assert.equal(badRule.status, 400);
    assert.match(await badRule.text(), /user rule 1/);
  } finally {
    await t.close();
  }
});

Deno.test("DELETE /api/users/{id}: the last admin is protected; a user may delete themself", async () => {
  const t = await testApp({ users: [{ username: "alice" }, { username: "bob" }] });
  try {
    const adminId = t.users.admin.id;
    assert.equal(
      (await t.request(`/api/users/${adminId}`, { method: "DELETE", as: "admin", body: REAUTH })).status,
      403,
    );
    assert.equal(
      (await t.request(`/api/users/${t.users.bob.id}`, { method: "DELETE", as: "alice", body: REAUTH }))
        .status,
      403,
    );
    assert.equal(
      (await t.request(`/api/users/${t.users.alice.id}`, { method: "DELETE", body: "{}" })).status,
      401,
    );
    assert.equal(
      (await t.request(`/api/users/${t.users.alice.id}`, { method: "DELETE", as: "alice", body: REAUTH }))
        .status,
      200,
    );
    assert.equal(await users.findUser(t.deps.kv, t.users.alice.id), null);
    const demote = await t.request(`/api/users/${adminId}`, {
      as: "admin",
      ...put(adminId, ["perm"], { perm: { admin: false } }),
    });
    assert.equal(demote.status, 403);
    assert.equal(
      (await t.request(`/api/users/424242`, { method: "DELETE", as: "admin", body: REAUTH })).status,
      404,
    );
  } finally {
    await t.close();
  }
});
