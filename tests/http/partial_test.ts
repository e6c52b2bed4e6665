/** HTTP tests of partial page renders (`X-Partial: main`, client-side navigation between files and settings). */
import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import type { PartialPage } from "../../framework/router.ts";

const PARTIAL = { "X-Partial": "main" };

function cookie(token: string, extra: Record<string, string> = {}): HeadersInit {
  return { Cookie: `auth=${token}`, ...extra };
}

function layoutOf(html: string): string | null {
  return html.match(/<main id="main"[^>]*\sdata-layout="([^"]*)"/)?.[1] ?? null;
}

Deno.test("partial: files and settings answer their main area only, with one layout signature", async () => {
  const t = await testApp({ users: [{ username: "bob", perm: { create: true, share: true } }] });
  try {
    const layouts: string[] = [];
    for (
      const [path, island, title] of [
        ["/files/", "FileBrowser", "My files"],
        ["/settings/profile", "SettingsProfile", "Profile settings"],
      ]
    ) {
      const r = await t.request(path, { headers: cookie(t.tokens.bob, PARTIAL) });
      assert.equal(r.status, 200, path);
      assert.match(r.headers.get("Content-Type")!, /^application\/json/, path);
      assert.match(r.headers.get("Vary") ?? "", /X-Partial/, path);
      const body = await r.json() as PartialPage;
      assert.ok(!body.html.includes("<html"), `${path}: no document shell`);
      assert.ok(!body.html.includes('data-island="Sidebar"'), `${path}: the sidebar stays in the browser`);
      assert.ok(
        !body.html.includes('data-island="Uploads"'),
        `${path}: the upload panel stays in the browser`,
      );
      assert.ok(body.html.includes(`data-island="${island}"`), path);
      assert.match(body.html, new RegExp(`<title>${title} - File Browser</title>`), path);
      assert.deepEqual(body.scripts.map((s) => s.split("/").pop()), [`${island}.js`], path);
      const layout = layoutOf(body.html);
      assert.ok(layout, path);
      layouts.push(layout);
    }
    assert.equal(layouts[0], layouts[1], "files and settings swap into one another");
    // The full page carries the same signature, so the browser can compare before swapping.
    const full = await t.request("/settings/profile", { headers: cookie(t.tokens.bob) });
    assert.match(full.headers.get("Content-Type")!, /^text\/html/);
    const html = await full.text();
    assert.equal(layoutOf(html), layouts[0]);
    assert.ok(html.includes('data-island="Uploads"'));
  } finally {
    await t.close();
  }
});

Deno.test("partial: pages of another layout and non-GET requests are not partials the browser can swap", async () => {
  const t = await testApp({ users: [{ username: "bob", perm: { create: true } }] });
  try {
    // The login page has no main layout: the answer has no signature, and the browser loads it the normal way.
    const login = await t.request("/login", { headers: PARTIAL });
    const body = await login.json() as PartialPage;
    assert.equal(layoutOf(body.html), null);
    // A guard's redirect stays a redirect (the browser follows it and checks what it got).
    const r = await t.request("/files/", { headers: PARTIAL, redirect: "manual" });
    assert.equal(r.status, 302);
    await r.body?.cancel();
    // Any other value of the header is a normal page.
    const other = await t.request("/files/", { headers: cookie(t.tokens.bob, { "X-Partial": "all" }) });
    assert.match(other.headers.get("Content-Type")!, /^text\/html/);
    await other.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("partial: with command execution on, files and settings still share one layout signature", async () => {
  const t = await testApp({
    config: { enableExec: true },
    users: [{ username: "runner", perm: { create: true, execute: true } }, { username: "bob", perm: {} }],
  });
  try {
    const signature = async (path: string, as: string) => {
      const r = await t.request(path, { headers: cookie(t.tokens[as]) });
      assert.equal(r.status, 200, path);
      return layoutOf(await r.text());
    };
    for (const as of ["runner", "bob"]) {
      const files = await signature("/files/", as);
      assert.equal(files, await signature("/settings/profile", as), as);
      assert.equal(
        files?.includes("ShellPanel"),
        as === "runner",
        `${as}: the shell panel on every page or none`,
      );
    }
  } finally {
    await t.close();
  }
});
