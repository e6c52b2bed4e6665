/** Tests of _layout.tsx support in the router: nesting, props, the error page and partial renders. */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { h } from "preact";
import { mountManifest } from "./router.ts";
import type { AppShellProps, Manifest, PartialPage } from "./router.ts";
import type { LayoutProps } from "./define.ts";
import { isPartialRender, PARTIAL_HEADER, PARTIAL_MAIN } from "./render_context.ts";
import { page } from "./define.ts";

function frame(name: string) {
  return (p: LayoutProps) =>
    h("div", { "data-l": name, "data-n": (p.data as { n?: number } | undefined)?.n }, h(p.Component, null));
}

function layoutApp(extra: Manifest["routes"] = {}) {
  const manifest: Manifest = {
    routes: {
      "routes/_app.tsx": {
        default: (p: AppShellProps) =>
          p.partial
            ? h("section", null, p.children as never)
            : h("html", null, h("body", null, p.children as never)),
      },
      "routes/_layout.tsx": { default: frame("root") },
      "routes/settings/_layout.tsx": { default: frame("settings") },
      "routes/settings/a.tsx": { handler: { GET: () => page({ n: 1 }) }, default: () => h("p", null, "a") },
      "routes/settings/deep/b.tsx": { default: () => h("p", null, "b") },
      "routes/plain.tsx": { default: () => h("p", null, "plain") },
      "routes/bare.tsx": { config: { skipInheritedLayouts: true }, default: () => h("p", null, "bare") },
      "routes/share/_layout.tsx": { config: { skipInheritedLayouts: true }, default: frame("share") },
      "routes/share/x.tsx": { default: () => h("p", null, "x") },
      "routes/_error.tsx": {
        statusPages: [403],
        default: (p: { data: { status: number } }) => h("p", null, `error ${p.data.status}`),
      },
      ...extra,
    },
    islands: {},
  };
  const app = new Hono();
  const renderError = mountManifest(app, manifest, { islandsUrl: "/_islands" });
  app.onError((_err, c) => renderError(c, 500) ?? c.text("none", 500));
  return app;
}

Deno.test("_layout.tsx: folder layouts nest outermost first and get the page's props", async () => {
  const app = layoutApp();
  const body = async (url: string) =>
    (await (await app.request(url)).text()).replace(/^.*<body>|<\/body>.*$/g, "");
  assert.equal(
    await body("/settings/a"),
    '<div data-l="root" data-n="1"><div data-l="settings" data-n="1"><p>a</p></div></div>',
  );
  assert.equal(
    await body("/settings/deep/b"),
    '<div data-l="root"><div data-l="settings"><p>b</p></div></div>',
    "a folder without a layout of its own gets those above",
  );
  assert.equal(await body("/plain"), '<div data-l="root"><p>plain</p></div>');
  assert.equal(await body("/bare"), "<p>bare</p>", "a page that skips inherited layouts has none");
  assert.equal(
    await body("/share/x"),
    '<div data-l="share"><p>x</p></div>',
    "a layout that skips the root one",
  );
});

Deno.test("_layout.tsx: a page without any layout renders as it is", async () => {
  const app = new Hono();
  mountManifest(app, {
    routes: {
      "routes/settings/_layout.tsx": { default: frame("settings") },
      "routes/other.tsx": { default: () => h("p", null, "other") },
    },
    islands: {},
  }, { islandsUrl: "/_islands" });
  assert.equal(await (await app.request("/other")).text(), "<!doctype html><p>other</p>");
  assert.equal((await app.request("/settings/_layout")).status, 404, "a layout is not a route");
});

Deno.test("_layout.tsx: the error page renders inside the root layout, also at its status pages", async () => {
  const app = layoutApp({
    "routes/boom.tsx": {
      handler: {
        GET: () => {
          throw new Error("boom");
        },
      },
    },
  });
  let res = await app.request("/boom");
  assert.equal(res.status, 500);
  assert.match(await res.text(), /<body><div data-l="root"><p>error 500<\/p><\/div><\/body>/);
  res = await app.request("/403");
  assert.equal(res.status, 403);
  assert.match(await res.text(), /<div data-l="root"><p>error 403<\/p><\/div>/);
});

Deno.test("_layout.tsx: a partial render runs the layouts with the partial flag on", async () => {
  const seen: boolean[] = [];
  const app = layoutApp({
    "routes/_layout.tsx": {
      default: (p: LayoutProps) => {
        seen.push(isPartialRender());
        return isPartialRender()
          ? h("main", null, h(p.Component, null))
          : h("div", null, h(p.Component, null));
      },
    },
  });
  const res = await app.request("/settings/a", { headers: { [PARTIAL_HEADER]: PARTIAL_MAIN } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const answer = await res.json() as PartialPage;
  assert.equal(
    answer.html,
    '<section><main><div data-l="settings" data-n="1"><p>a</p></div></main></section>',
  );
  const full = await (await app.request("/settings/a")).text();
  assert.match(full, /<body><div><div data-l="settings"/);
  assert.deepEqual(seen, [true, false]);
  assert.equal(isPartialRender(), false, "the flag is off after the render");
});
