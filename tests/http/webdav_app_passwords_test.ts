/** WebDAV sign-in with app passwords, and the account password refused once two-factor login is on. */
import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import { createAppPassword, deleteAppPassword } from "../../lib/auth/app_passwords.ts";
import { confirmEnrollment, startEnrollment } from "../../lib/auth/twofa.ts";
import { totpCode } from "../../lib/auth/totp.ts";
import { users } from "../../lib/storage/mod.ts";
import { basic, serveDav } from "./_dav.ts";

Deno.test("WebDAV takes an app password (revocable at once) and, with 2FA on, no longer the account password", async () => {
  const t = await testApp({ config: { webdav: true, loginRateLimit: 50 }, users: [{ username: "bob" }] });
  try {
    const bob = await users.getUser(t.deps.kv, t.users.bob.id);
    const propfind = async (password: string) => {
      const res = await t.app.request("/dav/", {
        method: "PROPFIND",
        headers: { Authorization: basic("bob", password), Depth: "0" },
      });
      await res.body?.cancel();
      return res.status;
    };
    assert.equal(await propfind(TEST_PASSWORD), 207, "account password without 2FA");
    const app = await createAppPassword(t.deps.kv, bob.id, { name: "laptop", now: Date.now() });
    assert.equal(await propfind(app.password), 207, "app password");
    assert.equal(await propfind(app.password.slice(0, -1) + "x"), 401, "a wrong app password");

    const enrol = await startEnrollment(t.deps.kv, bob, { issuer: "File Browser", now: Date.now() });
    const codes = await confirmEnrollment(t.deps.kv, bob.id, {
      code: totpCode(enrol.secret, Date.now()),
      now: Date.now(),
    });
    assert.ok(codes && codes.length > 0, "2FA enrolled");
    assert.equal(await propfind(TEST_PASSWORD), 401, "the account password alone is refused with 2FA on");
    assert.equal(await propfind(app.password), 207, "app passwords keep working");

    await deleteAppPassword(t.deps.kv, bob.id, app.id);
    assert.equal(await propfind(app.password), 401, "a revoked app password ends at once");
  } finally {
    await t.close();
  }
});

Deno.test("WebDAV refuses every password while a required two-factor enrolment is pending, over HTTP", async () => {
  const dav = await serveDav({ config: { loginRateLimit: 50 }, users: [{ username: "bob" }] });
  const { t } = dav;
  try {
    const bob = await users.getUser(t.deps.kv, t.users.bob.id);
    const propfind = async (password: string) => {
      const res = await fetch(dav.davUrl, {
        method: "PROPFIND",
        headers: { Authorization: basic("bob", password), Depth: "0" },
      });
      await res.body?.cancel();
      return { status: res.status, challenge: res.headers.get("WWW-Authenticate") ?? "" };
    };
    const app = await createAppPassword(t.deps.kv, bob.id, { name: "laptop", now: Date.now() });
    // Remembered as verified before the requirement comes.
    assert.equal((await propfind(TEST_PASSWORD)).status, 207);
    const settings = await (await t.request("/api/settings", { as: "admin" })).json();
    const put = await t.request("/api/settings", {
      method: "PUT",
      as: "admin",
      body: JSON.stringify({ ...settings, twoFactorRequired: "all" }),
    });
    assert.equal(put.status, 200);
    // The API refuses the account (all but the enrolment), and so does WebDAV, also a remembered password.
    const login = await t.request("/api/login", {
      method: "POST",
      body: JSON.stringify({ username: "bob", password: TEST_PASSWORD }),
    });
    const token = await login.text();
    assert.equal((await t.request("/api/resources/", { headers: { "X-Auth": token } })).status, 403);
    const refused = await propfind(TEST_PASSWORD);
    assert.equal(refused.status, 401, "account password while the enrolment is pending");
    assert.match(refused.challenge, /^Basic realm=/);
    assert.equal((await propfind(app.password)).status, 401, "app password while the enrolment is pending");
    // Refusals of right passwords keep no throttle slot: the owner can still log in on the web to enrol.
    for (let i = 0; i < 60; i++) assert.equal((await propfind(TEST_PASSWORD)).status, 401);
    const again = await fetch(`${dav.origin}/api/login`, {
      method: "POST",
      body: JSON.stringify({ username: "bob", password: TEST_PASSWORD }),
    });
    assert.equal(again.status, 200);
    await again.body?.cancel();

    const enrol = await startEnrollment(t.deps.kv, bob, { issuer: "File Browser", now: Date.now() });
    await confirmEnrollment(t.deps.kv, bob.id, { code: totpCode(enrol.secret, Date.now()), now: Date.now() });
    assert.equal(
      (await propfind(TEST_PASSWORD)).status,
      401,
      "with 2FA on, the account password stays refused",
    );
    assert.equal((await propfind(app.password)).status, 207, "enrolled: app passwords work again");
  } finally {
    await dav.close();
  }
});
