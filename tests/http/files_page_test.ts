/** HTTP tests of the files page's first screen: the rows of a folder come with the page, anything else as before. */
import assert from "node:assert/strict";
import { displayOrder } from "../../client/display_order.ts";
import { parse } from "../../framework/serialize.ts";
import type { Resource } from "../../lib/types.ts";
import { pathRule } from "../../lib/fs/_testing.ts";
import { type TestApp, testApp } from "../_helpers.ts";

const HOSTILE = [
  "<script>alert(1)",
  `a"b'c.txt`,
  "שלום עולם.txt",
  "مرحبا‏.txt",
  "日本語 ñ é 🙂.txt",
  "&amp;.txt",
  "</div><img src=x onerror=alert(1)>",
];

function cookie(t: TestApp, as: string): HeadersInit {
  return { Cookie: `auth=${t.tokens[as]}` };
}

async function page(t: TestApp, path: string, as = "bob"): Promise<string> {
  const res = await t.request(path, { headers: cookie(t, as) });
  assert.equal(res.status, 200, path);
  assert.match(res.headers.get("Content-Type") ?? "", /^text\/html/);
  return await res.text();
}

const ENTITIES: Record<string, string> = {
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&amp;": "&",
};
const unescape = (s: string) => s.replace(/&(lt|gt|quot|#39|amp);/g, (e) => ENTITIES[e]);

/** The names of the rows in the HTML, in order. */
function rowNames(html: string): string[] {
  return [...html.matchAll(/<div role="option"[^>]* data-name="([^"]*)"/g)].map((m) => unescape(m[1]));
}

/** The listing the page hands to the FileBrowser island. */
function firstScreen(html: string): Resource | null {
  const m = html.match(
    /<script type="application\/json" data-island-props="FileBrowser">([\s\S]*?)<\/script>/,
  );
  assert.ok(m, "FileBrowser props");
  return (parse(m[1]) as { listing: Resource | null }).listing;
}

function preloadOf(html: string): string | null {
  return html.match(/<link rel="preload" as="fetch" href="([^"]*)"/)?.[1] ?? null;
}

async function apiOrder(t: TestApp, path: string, as = "bob"): Promise<Resource[]> {
  const res = await t.request(`/api/resources${path}`, { as });
  assert.equal(res.status, 200);
  const r = await res.json() as Resource;
  return displayOrder(r.items!, r.sorting);
}

async function setPrefs(t: TestApp, as: string, data: Record<string, unknown>): Promise<void> {
  const id = t.users[as].id;
  const res = await t.request(`/api/users/${id}`, {
    method: "PUT",
    as,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ what: "user", which: Object.keys(data), data: { id, ...data } }),
  });
  assert.equal(res.status, 200, await res.text());
}

Deno.test("files page: a folder's rows come with the HTML, hostile names escaped, in the user's order", async () => {
  const t = await testApp({ users: [{ username: "bob", perm: { download: true } }] });
  try {
    await Deno.mkdir(`${t.root}/d/zz-folder`, { recursive: true });
    for (const [i, name] of HOSTILE.entries()) {
      if (name.includes("/")) continue;
      await Deno.writeTextFile(`${t.root}/d/${name}`, "x".repeat(i + 1));
    }
    await Deno.writeTextFile(`${t.root}/d/img.png`, "x".repeat(100));
    const names = HOSTILE.filter((n) => !n.includes("/"));
    for (
      const sorting of [{ by: "name", asc: false }, { by: "size", asc: false }, { by: "name", asc: true }]
    ) {
      await setPrefs(t, "bob", { sorting, viewMode: "list" });
      const html = await page(t, "/files/d/");
      const expected = await apiOrder(t, "/d/");
      assert.deepEqual(rowNames(html), expected.map((i) => i.name), JSON.stringify(sorting));
      assert.equal(rowNames(html)[0], "zz-folder", "folders first");
      const listing = firstScreen(html)!;
      assert.deepEqual(listing.items, expected);
      assert.equal(listing.numDirs! + listing.numFiles!, names.length + 2);
      // Nothing left to fetch: no preload of the listing.
      assert.equal(preloadOf(html), null);
      assert.ok(!html.includes("<script>alert"), "no raw script tag from a name");
      assert.ok(!html.includes("<img src=x"), "no raw markup from a name");
      assert.match(html, new RegExp(`aria-setsize="${names.length + 2}"`));
      assert.match(html, /<bdi>שלום עולם\.txt<\/bdi>/);
      assert.match(html, /<bdi>&lt;script>alert\(1\)<\/bdi>/);
    }
  } finally {
    await t.close();
  }
});

Deno.test("files page: a big folder sends its first screen and preloads the rest; the view mode renders", async () => {
  const t = await testApp({ users: [{ username: "bob", perm: { download: true } }] });
  try {
    await Deno.mkdir(`${t.root}/big`);
    for (let i = 0; i < 150; i++) {
      await Deno.writeTextFile(`${t.root}/big/f${String(i).padStart(3, "0")}.txt`, "");
    }
    const expected = await apiOrder(t, "/big/");
    for (
      const [viewMode, rows, css] of [["list", 40, "list"], ["mosaic", 60, "mosaic"], [
        "mosaic gallery",
        60,
        "gallery",
      ]]
    ) {
      await setPrefs(t, "bob", { viewMode, sorting: { by: "name", asc: false } });
      const html = await page(t, "/files/big/");
      assert.deepEqual(
        rowNames(html),
        expected.slice(0, rows as number).map((i) => i.name),
        String(viewMode),
      );
      assert.match(html, new RegExp(`class="listing-wrap ${css}"`));
      const listing = firstScreen(html)!;
      assert.equal(listing.items!.length, 60);
      assert.equal(listing.numFiles, 150);
      assert.equal(preloadOf(html), "/api/resources/big/");
    }
  } finally {
    await t.close();
  }
});

Deno.test("files page: files, missing, forbidden and slash-less paths render no rows and load as before", async () => {
  const t = await testApp({
    users: [
      { username: "bob", perm: { download: true }, rules: [pathRule("/secret")] },
      { username: "eve", perm: { download: true }, scope: "/home/eve" },
    ],
  });
  try {
    await Deno.mkdir(`${t.root}/secret`, { recursive: true });
    await Deno.mkdir(`${t.root}/home/eve`, { recursive: true });
    await Deno.mkdir(`${t.root}/d`, { recursive: true });
    await Deno.writeTextFile(`${t.root}/d/a b.txt`, "hello");
    await Deno.writeTextFile(`${t.root}/secret/s.txt`, "s");
    const cases: [string, string, string, number][] = [
      ["a file (the preview page)", "/files/d/a%20b.txt", "/api/resources/d/a%20b.txt", 200],
      ["a missing folder", "/files/nope/", "/api/resources/nope/", 404],
      ["a folder a rule forbids", "/files/secret/", "/api/resources/secret/", 403],
      ["a folder without its slash", "/files/d", "/api/resources/d", 200],
    ];
    for (const [what, url, preload, apiStatus] of cases) {
      const html = await page(t, url);
      assert.deepEqual(rowNames(html), [], what);
      assert.equal(firstScreen(html), null, what);
      assert.equal(preloadOf(html), preload, what);
      assert.match(html, /data-testid="files"/);
      const res = await t.request(preload, { as: "bob" });
      await res.body?.cancel();
      assert.equal(res.status, apiStatus, `${what}: the API answers`);
    }
    const html = await page(t, "/files/", "eve");
    assert.deepEqual(rowNames(html), [], "an empty scope has no rows");
    assert.deepEqual(firstScreen(html)?.items, []);
    assert.match(html, /data-testid="empty"/);
    const res = await t.request("/files/%2e%2e/secret/", { headers: cookie(t, "bob") });
    assert.equal(res.status, 302, "a dot-dot path is cleaned by a redirect, as before");
    await res.body?.cancel();
  } finally {
    await t.close();
  }
});
