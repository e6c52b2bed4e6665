import assert from "node:assert/strict";
import { Hono } from "hono";
import { h } from "preact";
import { mountManifest, routePathOf } from "./router.ts";
import type { Manifest } from "./router.ts";
import { island, nameIslands, serializeProps } from "./island.tsx";
import { page } from "./define.ts";
import { Head } from "./head.ts";
import { BuildError, checkIslandSource, writeManifest } from "./build.ts";

Deno.test("routePathOf() maps files to Hono paths (index, params, rest params, groups)", () => {
  assert.equal(routePathOf("routes/index.tsx"), "/");
  assert.equal(routePathOf("routes/files/index.tsx"), "/files");
  assert.equal(routePathOf("routes/files/[...path].tsx"), "/files/:path{[\\s\\S]*}");
  assert.equal(routePathOf("routes/api/users/[id].ts"), "/api/users/:id");
  assert.equal(routePathOf("routes/(group)/login.tsx"), "/login");
});

Deno.test("rest params match every character: CR, LF, U+2028 and U+2029 included", async () => {
  const app = new Hono();
  const manifest: Manifest = {
    routes: { "routes/api/x/[...path].ts": { handler: { GET: (c) => c.text(c.req.param("path") ?? "") } } },
    islands: {},
  };
  mountManifest(app, manifest, { islandsUrl: "/_islands" });
  for (const name of ["a\nb", "a\rb", "x\u2028y", "x\u2029y", "t\tb/c\u0085d", ""]) {
    const res = await app.request(`/api/x/${name.split("/").map(encodeURIComponent).join("/")}`);
    assert.equal(res.status, 200, JSON.stringify(name));
    assert.equal(await res.text(), name);
  }
});

Deno.test("serializeProps() cannot close the script tag or break on U+2028", () => {
  const text = serializeProps({ a: "</script><script>alert(1)</script>", b: "\u2028" });
  assert.ok(!text.includes("</script"));
  assert.deepEqual(JSON.parse(text), { a: "</script><script>alert(1)</script>", b: "\u2028" });
});

Deno.test("pages render inside _app with island markers, props, scripts and chunk preloads", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/deps.json`, JSON.stringify({ Counter: ["chunk-A.js"] }));
    const Counter = island("Counter", (p: { n: number }) => h("b", null, String(p.n)));
    const manifest: Manifest = {
      routes: {
        "routes/_app.tsx": {
          default: (p: { children: unknown }) =>
            h("html", null, h("head", null), h("body", null, p.children as never)),
        },
        "routes/count.tsx": {
          handler: { GET: () => page({ n: 7 }, { status: 201 }) },
          default: (p: { data: { n: number } }) => h("main", null, h(Counter, { n: p.data.n })),
        },
        "routes/_middleware.ts": {
          middleware: async (c, next) => {
            await next();
            c.res.headers.set("X-Seen", "1");
          },
        },
      },
      islands: {},
    };
    const app = new Hono();
    mountManifest(app, manifest, { islandsUrl: "/_islands", islandsDir: dir });
    const res = await app.request("/count");
    assert.equal(res.status, 201);
    assert.equal(res.headers.get("X-Seen"), "1");
    const html = await res.text();
    assert.ok(html.startsWith("<!doctype html><html>"));
    assert.match(
      html,
      /<fb-island data-island="Counter"[^>]*><script type="application\/json" data-island-props="Counter">\[1,\{"n":2\},7\]<\/script><div data-island-root="Counter"[^>]*><b>7<\/b><\/div><\/fb-island>/,
    );
    assert.match(
      html,
      /<link rel="modulepreload" href="\/_islands\/chunk-A.js"><script type="module" src="\/_islands\/Counter.js"><\/script><\/head>/,
    );
    assert.match(html, /<\/main><\/body>/, "nothing of the framework's in the body");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeManifest() lists routes and only top-level islands", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/routes/api`, { recursive: true });
    await Deno.mkdir(`${root}/islands/parts`, { recursive: true });
    await Deno.writeTextFile(`${root}/routes/index.tsx`, "");
    await Deno.writeTextFile(`${root}/routes/api/x.ts`, "");
    await Deno.writeTextFile(`${root}/routes/api/x_test.ts`, "");
    await Deno.writeTextFile(`${root}/routes/api/_layout.tsx`, "");
    await Deno.writeTextFile(`${root}/routes/api/_helper.ts`, "");
    await Deno.writeTextFile(`${root}/islands/Thing.tsx`, "export const Thing = island(Impl);");
    await Deno.writeTextFile(`${root}/islands/parts/Part.tsx`, "");
    assert.equal(await writeManifest(root), true);
    assert.equal(await writeManifest(root), false, "unchanged the second time");
    const text = await Deno.readTextFile(`${root}/routes.gen.ts`);
    assert.match(text, /"routes\/api\/x.ts"/);
    assert.match(text, /"routes\/api\/_layout.tsx"/);
    assert.ok(!text.includes("_helper"), "private helpers stay out");
    assert.match(text, /"islands\/Thing.tsx"/);
    assert.ok(!text.includes("x_test") && !text.includes("Part.tsx"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("serializeProps() keeps null as null and turns undefined into {}", () => {
  assert.equal(serializeProps(null), "null");
  assert.equal(serializeProps(undefined), "{}");
});

Deno.test("_error.tsx: the router renders it with the status in its data, and at its status pages", async () => {
  const seen: string[] = [];
  const manifest: Manifest = {
    routes: {
      "routes/_error.tsx": {
        statusPages: [403],
        middleware: async (_c, next) => {
          seen.push("error middleware");
          await next();
        },
        default: (p: { data: { status: number } }) => h("p", { "data-status": p.data.status }, "oops"),
      },
      "routes/boom.tsx": {
        handler: {
          GET: () => {
            throw new Error("boom");
          },
        },
      },
    },
    islands: {},
  };
  const app = new Hono();
  const renderError = mountManifest(app, manifest, { islandsUrl: "/_islands" });
  app.onError((_err, c) => renderError(c, 503) ?? c.text("no page", 500));
  let res = await app.request("/boom");
  assert.equal(res.status, 503);
  assert.match(await res.text(), /<p data-status="503">oops<\/p>/);
  res = await app.request("/403");
  assert.equal(res.status, 403);
  assert.match(await res.text(), /data-status="403"/);
  assert.deepEqual(seen, ["error middleware"]);
  res = await app.request("/404");
  assert.equal(res.status, 404, "only the listed statuses get a page");
  await res.body?.cancel();
});

Deno.test("mountManifest() without _error.tsx gives a renderer that returns null", () => {
  const renderError = mountManifest(new Hono(), { routes: {}, islands: {} }, { islandsUrl: "/_islands" });
  assert.equal(renderError({} as never, 500), null);
});

Deno.test("the build accepts islands named after their file, with or without the name", () => {
  for (
    const text of [
      "export const Thing = island(ThingImpl);",
      'export const Thing = island("Thing", ThingImpl);',
      "export const Thing: IslandComponent<P> = island<P>(\n  'Thing',\n  (p) => null,\n);",
    ]
  ) checkIslandSource("islands/Thing.tsx", text);
});

Deno.test("the build fails naming the file when an island's name or export disagrees with it", async () => {
  const cases: [string, RegExp][] = [
    [
      'export const Thing = island("Other", ThingImpl);',
      /islands\/Thing.tsx: island\("Other", …\) must be named after its file, "Thing"/,
    ],
    ["export const Other = island(ThingImpl);", /islands\/Thing.tsx: an island file must export `Thing`/],
    ["export function Thing() {}", /islands\/Thing.tsx: an island file must export `Thing`/],
  ];
  for (const [text, re] of cases) {
    assert.throws(() => checkIslandSource("islands/Thing.tsx", text), (err: unknown) => {
      assert.ok(err instanceof BuildError);
      assert.match(err.message, re);
      return true;
    });
  }
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/islands`, { recursive: true });
    await Deno.writeTextFile(`${root}/islands/Thing.tsx`, cases[0][0]);
    await assert.rejects(() => writeManifest(root), BuildError);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mounting names unnamed islands after their file and refuses a wrong name", async () => {
  const Unnamed = island((p: { n: number }) => h("i", null, String(p.n)));
  assert.equal(Unnamed.islandName, "");
  nameIslands({ "islands/Unnamed.tsx": { Unnamed } });
  assert.equal(Unnamed.islandName, "Unnamed");
  const app = new Hono();
  mountManifest(app, {
    routes: { "routes/x.tsx": { default: () => h(Unnamed, { n: 1 }) } },
    islands: { "islands/Unnamed.tsx": { Unnamed } },
  }, { islandsUrl: "/_islands" });
  assert.match(await (await app.request("/x")).text(), /<fb-island data-island="Unnamed"/);
  const Wrong = island("Right", () => null);
  assert.throws(
    () => nameIslands({ "islands/Wrong.tsx": { Wrong } }),
    /islands\/Wrong.tsx: island\("Right", …\)/,
  );
  assert.throws(
    () => nameIslands({ "islands/Gone.tsx": {} }),
    /islands\/Gone.tsx: expected an export `Gone`/,
  );
});

Deno.test("rendering an island that no manifest named fails loudly", async () => {
  const Lost = island(() => h("i", null));
  const app = new Hono();
  mountManifest(app, { routes: { "routes/y.tsx": { default: () => h(Lost, {}) } }, islands: {} }, {
    islandsUrl: "/_islands",
  });
  app.onError((err, c) => c.text(err.message, 500));
  const res = await app.request("/y");
  assert.equal(res.status, 500);
  assert.match(await res.text(), /island without a name/);
});

Deno.test("head elements from page() and <Head> go into the head, once each, before the island scripts", async () => {
  const X = island("X", () => h("i", null));
  nameIslands({ "islands/X.tsx": { X } });
  const manifest: Manifest = {
    routes: {
      "routes/_app.tsx": {
        default: (p: { children: unknown }) =>
          h("html", null, h("head", null, h("title", null, "t")), h("body", null, p.children as never)),
      },
      "routes/p.tsx": {
        handler: {
          GET: () => page({}, { head: [h("link", { rel: "preload", href: "/a", as: "fetch" })] }),
        },
        default: () =>
          h("main", null, [
            h(Head, null, h("meta", { name: "robots", content: "noindex" })),
            h(Head, null, h("meta", { name: "robots", content: "noindex" })),
            h("p", null, "</head> in text"),
            h(X, {}),
          ]),
      },
    },
    islands: {},
  };
  const app = new Hono();
  mountManifest(app, manifest, { islandsUrl: "/_islands" });
  const html = await (await app.request("/p")).text();
  assert.equal(
    html.slice(0, html.indexOf("<body>")),
    '<!doctype html><html><head><title>t</title><link rel="preload" href="/a" as="fetch"/>' +
      '<meta name="robots" content="noindex"/><script type="module" src="/_islands/X.js"></script></head>',
  );
  assert.match(html, /<main><p>&lt;\/head> in text<\/p><fb-island/);
});

Deno.test("a group folder's _middleware runs for the routes of the group only, after the folder's own", async () => {
  const mark = (name: string) => async (c: { res: Response }, next: () => Promise<void>) => {
    await next();
    c.res.headers.append("X-Seen", name);
  };
  const text = (body: string) => ({ GET: () => new Response(body) });
  const manifest: Manifest = {
    routes: {
      "routes/api/users/_middleware.ts": { middleware: mark("users") },
      "routes/api/users/(admin)/_middleware.ts": { middleware: mark("admin") },
      "routes/api/users/(admin)/index.ts": { handler: text("list") },
      "routes/api/users/(admin)/[id]/twofa.ts": { handler: text("twofa") },
      "routes/api/users/(own)/_middleware.ts": { middleware: mark("own") },
      "routes/api/users/(own)/[id].ts": { handler: text("one") },
    },
    islands: {},
  } as unknown as Manifest;
  const app = new Hono();
  mountManifest(app, manifest, { islandsUrl: "/_islands", islandsDir: "/nonexistent" });
  const table: [string, string, string][] = [
    ["/api/users", "list", "admin, users"],
    ["/api/users/7", "one", "own, users"],
    ["/api/users/7/twofa", "twofa", "admin, users"],
  ];
  for (const [path, body, seen] of table) {
    const res = await app.request(path);
    assert.equal(res.status, 200, path);
    assert.equal(await res.text(), body, path);
    assert.equal(res.headers.get("X-Seen"), seen, path);
  }
});

/** A layout that wraps what it renders in `<div data-l="name">` and shows the page's data. */
