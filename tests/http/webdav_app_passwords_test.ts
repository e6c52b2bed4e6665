/** WebDAV sign-in with app passwords, and the account password refused once two-factor login is on. */
import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import { createAppPassword, deleteAppPassword } from "../../lib/auth/app_passwords.ts";
import { confirmEnrollment, startEnrollment } from "../../lib/auth/twofa.ts";
import { totpCode } from "../../lib/auth/totp.ts";
import { users } from "../../lib/storage/mod.ts";
import { basic } from "./_dav.ts";

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
