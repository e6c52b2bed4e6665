import assert from "node:assert/strict";
import { middlewareApp, testApp } from "../tests/_helpers.ts";
import { requirePageUser } from "./require_page_user.ts";

const cookie = (token: string) => ({ headers: { Cookie: `auth=${token}` } });

Deno.test("requirePageUser() throws 401 without a session (the app's onError redirects) and admits a valid cookie", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  try {
    const app = middlewareApp(t.deps, requirePageUser());
    app.get("/*", (c) => c.text(`${c.var.user.username} ${c.var.ctx.user.username}`));
    for (const init of [{}, cookie("not-a-token"), cookie(t.tokens.alice.slice(0, -2) + "xx")]) {
      const res = await app.request("http://x/files/", init);
      assert.equal(res.status, 401, JSON.stringify(init));
      assert.equal(await res.text(), "login_required");
    }
    const ok = await app.request("http://x/files/", cookie(t.tokens.alice));
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), "alice alice");
  } finally {
    await t.close();
  }
});

Deno.test("requirePageUser({ optional }) lets anonymous visitors through and still knows a signed-in one", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  try {
    const app = middlewareApp(t.deps, requirePageUser({ optional: true }));
    app.get("/*", (c) => c.text(c.var.user?.username ?? "anonymous"));
    assert.equal(await (await app.request("http://x/share/h")).text(), "anonymous");
    assert.equal(await (await app.request("http://x/share/h", cookie("bad"))).text(), "anonymous");
    assert.equal(await (await app.request("http://x/share/h", cookie(t.tokens.alice))).text(), "alice");
  } finally {
    await t.close();
  }
});

Deno.test("requirePageUser({ admin }) sends other users to /403; a pending 2FA enrolment goes to the profile", async () => {
  const t = await testApp({ users: [{ username: "alice" }], settings: { twoFactorRequired: "admins" } });
  try {
    const admin = middlewareApp(t.deps, requirePageUser({ admin: true }));
    admin.get("/*", (c) => c.text("admin page"));
    const alice = await admin.request("http://x/settings/global", cookie(t.tokens.alice));
    assert.equal(alice.status, 302);
    assert.equal(alice.headers.get("Location"), "/403");
    const pending = await admin.request("http://x/settings/global", cookie(t.tokens.admin));
    assert.equal(pending.status, 302);
    assert.equal(pending.headers.get("Location"), "/settings/profile");
    const profile = await admin.request("http://x/settings/profile", cookie(t.tokens.admin));
    assert.equal(profile.status, 200);
    assert.equal(await profile.text(), "admin page");
  } finally {
    await t.close();
  }
});
