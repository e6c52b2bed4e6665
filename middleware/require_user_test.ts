import assert from "node:assert/strict";
import { middlewareApp, testApp } from "../tests/_helpers.ts";
import { ENROLL_HEADER, requireUser } from "./require_user.ts";

Deno.test("requireUser() admits a valid token (header, or cookie on GET) and sets the request context", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  try {
    const app = middlewareApp(t.deps, requireUser());
    app.all("/", (c) => c.text(`${c.var.user.username} ${c.var.ctx.user.username}`));
    const cases: [RequestInit, number][] = [
      [{}, 401],
      [{ headers: { "X-Auth": "not-a-token" } }, 401],
      [{ headers: { "X-Auth": t.tokens.alice.slice(0, -2) + "xx" } }, 401],
      [{ headers: { "X-Auth": t.tokens.alice } }, 200],
      [{ headers: { Cookie: `auth=${t.tokens.alice}` } }, 200],
      // The cookie counts for GET only: another site's form post must not act as the user.
      [{ method: "POST", headers: { Cookie: `auth=${t.tokens.alice}` } }, 401],
      [{ method: "POST", headers: { "X-Auth": t.tokens.alice } }, 200],
    ];
    for (const [init, status] of cases) {
      const res = await app.request("http://x/", init);
      assert.equal(res.status, status, JSON.stringify(init));
      const body = await res.text();
      if (status === 200) assert.equal(body, "alice alice");
    }
  } finally {
    await t.close();
  }
});

Deno.test("requireUser({ admin }) refuses other users with 403", async () => {
  const t = await testApp({ users: [{ username: "alice", perm: { create: true } }] });
  try {
    const app = middlewareApp(t.deps, requireUser({ admin: true }));
    app.get("/", (c) => c.text("admin area"));
    const alice = await app.request("http://x/", { headers: { "X-Auth": t.tokens.alice } });
    assert.equal(alice.status, 403);
    assert.equal(await alice.text(), "admin_only");
    const admin = await app.request("http://x/", { headers: { "X-Auth": t.tokens.admin } });
    assert.equal(admin.status, 200);
    assert.equal(await admin.text(), "admin area");
  } finally {
    await t.close();
  }
});

Deno.test("requireUser() stops users who must enrol in two-factor login, unless the route is for enrolling", async () => {
  const t = await testApp({ users: [{ username: "alice" }], settings: { twoFactorRequired: "all" } });
  try {
    const strict = middlewareApp(t.deps, requireUser());
    strict.get("/", (c) => c.text("ok"));
    const enrolling = middlewareApp(t.deps, requireUser({ enrolling: true }));
    enrolling.get("/", (c) => c.text("ok"));
    const refused = await strict.request("http://x/", { headers: { "X-Auth": t.tokens.alice } });
    const pending = await enrolling.request("http://x/", { headers: { "X-Auth": t.tokens.alice } });
    await refused.body?.cancel();
    await pending.body?.cancel();
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get(ENROLL_HEADER), "required");
    assert.equal(pending.status, 200);
  } finally {
    await t.close();
  }
});
