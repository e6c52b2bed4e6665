/** HTTP tests of the pages: guards and redirects, the document shell (config, locale, direction, theme). */
import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";

function cookie(token: string): HeadersInit {
  return { Cookie: `auth=${token}` };
}

function json(html: string, id: string): unknown {
  const m = html.match(new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`));
  assert.ok(m, `no #${id}`);
  return JSON.parse(m[1]);
}

Deno.test("pages: guards redirect to the login with the path, admin-only pages to /403", async () => {
  const t = await testApp({ users: [{ username: "bob", perm: { create: true } }] });
  try {
    let r = await t.request("/files/a%20b/?x=1");
    assert.equal(r.status, 302);
    assert.equal(r.headers.get("Location"), `/login?redirect=${encodeURIComponent("/files/a%20b/?x=1")}`);
    r = await t.request("/files/", { headers: cookie("not.a.token") });
    assert.equal(r.status, 302);
    assert.match(r.headers.get("Location")!, /^\/login\?redirect=/);
    r = await t.request("/files/", { headers: cookie(t.tokens.bob) });
    assert.equal(r.status, 200);
    assert.match(r.headers.get("Content-Type")!, /^text\/html/);
    await r.body?.cancel();
    for (const [path, to] of [["/", "/files/"], ["/files", "/files/"], ["/settings", "/settings/profile"]]) {
      r = await t.request(path, { headers: cookie(t.tokens.bob) });
      assert.equal(r.status, 302, path);
      assert.equal(r.headers.get("Location"), to, path);
    }
    r = await t.request("/settings/users", { headers: cookie(t.tokens.bob) });
    assert.equal(r.headers.get("Location"), "/403");
    r = await t.request("/settings/global/", { headers: cookie(t.tokens.bob) });
    assert.equal(r.headers.get("Location"), "/403");
    r = await t.request("/login", { headers: cookie(t.tokens.bob) });
    assert.equal(r.headers.get("Location"), "/files/");
    r = await t.request("/login?redirect=//evil.example/", { headers: cookie(t.tokens.bob) });
    assert.equal(r.headers.get("Location"), "/files/", "no open redirect");
    r = await t.request("/403");
    assert.equal(r.status, 403);
    assert.match(await r.text(), /data-status="403"/);
  } finally {
    await t.close();
  }
});

Deno.test("pages: the shell carries the startup config, the user and only the active locale", async () => {
  const t = await testApp({
    users: [{ username: "bob", perm: { create: true } }],
    settings: {
      branding: {
        name: "Acme",
        disableExternal: false,
        disableUsedPercentage: true,
        files: "",
        theme: "dark",
        color: "",
      },
    },
  });
  try {
    let r = await t.request("/files/", { headers: cookie(t.tokens.bob) });
    let html = await r.text();
    const config = json(html, "fb-config") as Record<string, unknown>;
    assert.equal(config.Name, "Acme");
    assert.equal(config.BaseURL, "");
    assert.equal(config.StaticURL, "/static");
    assert.equal(config.DisableUsedPercentage, true);
    assert.equal((json(html, "fb-user") as { username: string }).username, "bob");
    assert.match(html, /<html lang="en" dir="ltr" data-theme="dark">/);
    assert.match(html, /<title>My files - Acme<\/title>/);
    // The (empty) folder comes whole with the page: nothing to preload (tests/http/files_page_test.ts).
    assert.doesNotMatch(html, /<link rel="preload" as="fetch"/);
    const i18n = json(html, "fb-i18n") as { locale: string; strings: Record<string, string> };
    assert.equal(i18n.locale, "en");

    // Browser language Arabic: right-to-left, and only Arabic strings are embedded.
    const res = await t.request(`/api/users/${t.users.bob.id}`, {
      method: "PUT",
      as: "bob",
      body: JSON.stringify({ what: "user", which: ["locale"], data: { id: t.users.bob.id, locale: "" } }),
    });
    assert.equal(res.status, 200);
    await res.body?.cancel();
    r = await t.request("/files/", {
      headers: { ...cookie(t.tokens.bob), "Accept-Language": "ar-EG,en;q=0.5" },
    });
    html = await r.text();
    assert.match(html, /<html lang="ar" dir="rtl"/);
    const ar = json(html, "fb-i18n") as { locale: string; strings: Record<string, string> };
    assert.equal(ar.locale, "ar");
    assert.equal(ar.strings["sidebar.myFiles"], "ملفاتي");
    assert.ok(!html.includes('"My files"'), "English strings are not sent");
  } finally {
    await t.close();
  }
});

Deno.test("pages: the instance stylesheet is linked and served when set", async () => {
  const t = await testApp({ settings: { customCss: ":root { --accent: #c0ffee; }" } });
  try {
    const html = await (await t.request("/login")).text();
    assert.match(html, /<link rel="stylesheet" href="\/custom.css"\/?>/);
    const r = await t.request("/custom.css");
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("Content-Type"), "text/css; charset=utf-8");
    assert.equal(await r.text(), ":root { --accent: #c0ffee; }");
  } finally {
    await t.close();
  }
});

Deno.test("pages: a base URL prefixes redirects, config and assets", async () => {
  const t = await testApp({ config: { baseUrl: "/fb" } });
  try {
    let r = await t.request("/fb/files/");
    assert.equal(r.status, 302);
    assert.equal(r.headers.get("Location"), `/fb/login?redirect=${encodeURIComponent("/files/")}`);
    r = await t.request("/fb/login");
    const html = await r.text();
    assert.equal((json(html, "fb-config") as { BaseURL: string }).BaseURL, "/fb");
    assert.match(html, /href="\/fb\/static\/app.css/);
    assert.match(html, /src="\/fb\/_islands\/Login.js"/);
  } finally {
    await t.close();
  }
});
