/** HTTP tests of the one way to the login: page guards throw 401, the app's onError redirects. */
import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";

Deno.test("anonymous page requests go to the login with their path; API requests get a plain 401", async () => {
  const t = await testApp({ config: { baseUrl: "/fb" } });
  try {
    const table: [string, string, number, string | null][] = [
      ["GET", "/fb/files/a%20b/?x=1", 302, "/fb/login?redirect=%2Ffiles%2Fa%2520b%2F%3Fx%3D1"],
      ["HEAD", "/fb/files/", 302, "/fb/login?redirect=%2Ffiles%2F"],
      ["GET", "/fb/settings/profile", 302, "/fb/login?redirect=%2Fsettings%2Fprofile"],
      // A folder's guard covers the folder's own index too.
      ["GET", "/fb/settings", 302, "/fb/login?redirect=%2Fsettings"],
      ["GET", "/fb/settings/audit", 302, "/fb/login?redirect=%2Fsettings%2Faudit"],
      ["GET", "/fb/settings/users/2", 302, "/fb/login?redirect=%2Fsettings%2Fusers%2F2"],
      ["GET", "/fb/api/users", 401, null],
      ["POST", "/fb/api/renew", 401, null],
      ["GET", "/fb/login", 200, null],
      ["GET", "/fb/share/nothing", 200, null],
    ];
    for (const [method, path, status, location] of table) {
      const res = await t.request(path, { method });
      assert.equal(res.status, status, `${method} ${path}`);
      assert.equal(res.headers.get("Location"), location, `${method} ${path}`);
      if (status === 401) assert.equal(await res.text(), "401 Unauthorized\n");
      else await res.body?.cancel();
    }
  } finally {
    await t.close();
  }
});

Deno.test("admin-only pages and APIs in route groups keep their guards; a user's own record stays reachable", async () => {
  const t = await testApp({ users: [{ username: "bob" }] });
  try {
    const page = await t.request("/settings/audit", { headers: { Cookie: `auth=${t.tokens.bob}` } });
    assert.equal(page.status, 302);
    assert.equal(page.headers.get("Location"), "/403");
    await page.body?.cancel();
    const table: [string, string, number][] = [
      ["GET", "/api/users", 403],
      ["DELETE", "/api/users/1/twofa", 403],
      ["GET", `/api/users/${t.users.bob.id}`, 200],
      ["GET", "/api/users/1", 403],
      ["GET", "/api/audit", 403],
      ["GET", "/api/settings", 403],
    ];
    for (const [method, path, status] of table) {
      const res = await t.request(path, { method, as: "bob" });
      assert.equal(res.status, status, `${method} ${path}`);
      await res.body?.cancel();
      const admin = await t.request(path, { method: "GET", as: "admin" });
      assert.notEqual(admin.status, 401, `admin ${path}`);
      assert.notEqual(admin.status, 403, `admin ${path}`);
      await admin.body?.cancel();
    }
  } finally {
    await t.close();
  }
});
