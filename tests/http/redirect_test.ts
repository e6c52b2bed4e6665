/** HTTP tests of the login page's `?redirect=` target: no open redirect, no 500 on control characters. */
import assert from "node:assert/strict";
import { parse } from "../../framework/serialize.ts";
import { testApp } from "../_helpers.ts";
import { REDIRECT_BYPASSES } from "../fixtures/redirect_bypasses.ts";

function cookie(token: string): HeadersInit {
  return { Cookie: `auth=${token}` };
}

function loginProps(html: string): { redirect: string } {
  const m = html.match(/<script type="application\/json" data-island-props="Login">([\s\S]*?)<\/script>/);
  assert.ok(m, "no Login island props");
  return parse(m[1]) as { redirect: string };
}

function assertSameOrigin(location: string, label: string): void {
  const url = new URL(location, "https://good.example");
  assert.equal(url.origin, "https://good.example", `${label} → ${location}`);
  assert.ok(location.startsWith("/") && !location.startsWith("//"), `${label} → ${location}`);
}

Deno.test("GET /login?redirect= never redirects off-site, logged in (302) or not (island props)", async () => {
  for (const baseUrl of ["", "/fb"]) {
    const t = await testApp({ config: { baseUrl } });
    try {
      for (const value of REDIRECT_BYPASSES) {
        const label = `${JSON.stringify(value)} (base "${baseUrl}")`;
        const path = `${baseUrl}/login?redirect=${encodeURIComponent(value)}`;
        const r = await t.request(path, { headers: cookie(t.tokens.admin) });
        assert.equal(r.status, 302, label);
        await r.body?.cancel();
        const location = r.headers.get("Location")!;
        assertSameOrigin(location, label);
        assert.ok(location.startsWith(`${baseUrl}/`), label);
        const page = await t.request(path);
        assert.equal(page.status, 200, label);
        const props = loginProps(await page.text());
        assertSameOrigin(`${baseUrl}${props.redirect}`, label);
      }
    } finally {
      await t.close();
    }
  }
});

Deno.test("GET /login: the raw forms of the report (%09, %0a, %0d, %5c) fall back to /files/, never 500", async () => {
  const t = await testApp();
  try {
    for (const raw of ["/%09/evil.example", "/%0a/evil.example", "/%0d/evil.example", "/%5c/evil.example"]) {
      const r = await t.request(`/login?redirect=${raw}`, { headers: cookie(t.tokens.admin) });
      assert.equal(r.status, 302, raw);
      assert.equal(r.headers.get("Location"), "/files/", raw);
      const page = await t.request(`/login?redirect=${raw}`);
      assert.equal(page.status, 200, raw);
      assert.equal(loginProps(await page.text()).redirect, "/files/", raw);
    }
  } finally {
    await t.close();
  }
});

Deno.test("GET /login keeps a same-site target, under the base URL too", async () => {
  for (const baseUrl of ["", "/fb"]) {
    const t = await testApp({ config: { baseUrl } });
    try {
      const target = "/files/a%20b/?x=1";
      const r = await t.request(`${baseUrl}/login?redirect=${encodeURIComponent(target)}`, {
        headers: cookie(t.tokens.admin),
      });
      assert.equal(r.status, 302);
      assert.equal(r.headers.get("Location"), `${baseUrl}${target}`);
      await r.body?.cancel();
      // A page that needs a session sends the browser to the login with a target relative to the base URL.
      const guarded = await t.request(`${baseUrl}/files/a%20b/?x=1`);
      assert.equal(guarded.status, 302);
      const login = new URL(guarded.headers.get("Location")!, "http://x");
      assert.equal(login.pathname, `${baseUrl}/login`);
      assert.equal(login.searchParams.get("redirect"), target);
    } finally {
      await t.close();
    }
  }
});
