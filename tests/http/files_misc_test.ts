/** HTTP tests of /api/usage, /api/search, /api/subtitle, /api/preview and /api/resources/recursive. */
import assert from "node:assert/strict";
import sharp from "sharp";
import { filesFixture, SECRET, TRAVERSALS } from "../fixtures/fs/tree.ts";

Deno.test("GET /api/usage: role matrix, files report zero, traversal", async () => {
  const f = await filesFixture();
  try {
    let r = await f.request("/api/usage/");
    assert.equal(r.status, 401);
    await r.body?.cancel();
    for (const as of ["ro", "u", "admin"]) {
      r = await f.request("/api/usage/", { as });
      assert.equal(r.status, 200, as);
      assert.match(r.headers.get("Content-Type")!, /^application\/json/);
      const usage = await r.json();
      assert.ok(usage.total > 0 && usage.used > 0 && usage.used <= usage.total, JSON.stringify(usage));
    }
    r = await f.request("/api/usage/a.txt", { as: "u" });
    assert.deepEqual(await r.json(), { total: 0, used: 0 });
    for (const path of ["evil-link/", "rule-hidden.txt", "a/", ".env"]) {
      r = await f.request(`/api/usage/${path}`, { as: "u" });
      assert.equal(r.status, 403, path);
      await r.body?.cancel();
    }
  } finally {
    await f.close();
  }
});

for (const searchIndex of [false, true]) {
  Deno.test(`GET /api/search: role matrix; rules, hiding, scope and links apply (index ${searchIndex})`, async () => {
    const f = await filesFixture({ searchIndex });
    try {
      let r = await f.request("/api/search/?query=x");
      assert.equal(r.status, 401);
      await r.body?.cancel();
      r = await f.request("/api/search/?query=x.txt", { as: "ro" });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get("Content-Type"), "text/plain; charset=utf-8");
      assert.equal(await r.text(), '{"dir":false,"path":"a/x.txt"}\n{"dir":false,"path":"ab/x.txt"}\n');
      r = await f.request("/api/search/?query=x.txt", { as: "u" });
      assert.equal(await r.text(), '{"dir":false,"path":"ab/x.txt"}\n', "user rule /a (not /ab)");
      r = await f.request("/api/search/?query=secret", { as: "u" });
      assert.equal(r.status, 200);
      assert.equal(await r.text(), "", "no secret.txt outside the scope, nothing through evil-link");
      r = await f.request(`/api/search/?query=${encodeURIComponent("type:image")}`, { as: "u" });
      assert.equal(await r.text(), "");
      r = await f.request("/api/search/?query=env", { as: "u" });
      assert.equal(await r.text(), "", "hidden dot-file");
      r = await f.request("/api/search/?query=rule", { as: "u" });
      assert.equal(await r.text(), "", "rule-hidden file");
      r = await f.request("/api/search/?query=link", { as: "u" });
      assert.equal(
        await r.text(),
        '{"dir":false,"path":"good-link.md"}\n',
        "escaping links are not reported",
      );
      // The base is checked like any path: an escaping one is 403, a missing one 404, a NUL byte 400.
      for (
        const [path, status] of [
          ["evil-link/", 403],
          ["missing/", 404],
          ["docs/missing/", 404],
          ["a.txt/below/", 404],
          ["do%00cs/", 400],
          ["%00/", 400],
        ] as const
      ) {
        r = await f.request(`/api/search/${path}?query=x`, { as: "u" });
        assert.equal(r.status, status, path);
        assert.match(r.headers.get("Content-Type")!, /^text\/plain/);
        await r.body?.cancel();
      }
      // A file has nothing below it.
      r = await f.request("/api/search/a.txt?query=a", { as: "u" });
      assert.equal(r.status, 200);
      assert.equal(await r.text(), "");
      r = await f.request("/api/search/..%2F..%2F/?query=secret", { as: "u" });
      assert.equal(await r.text(), "");
      r = await f.request("/api/search/?query=secret", { as: "admin" });
      assert.equal(await r.text(), '{"dir":false,"path":"secret.txt"}\n');
      assert.equal(r.headers.get("X-Search-Index"), searchIndex ? "ready" : "building");
    } finally {
      await f.close();
    }
  });
}

Deno.test("GET /api/search: at most 32 terms and 500 characters, 400 past that", async () => {
  const f = await filesFixture();
  try {
    const search = (q: string) => f.request(`/api/search/?query=${encodeURIComponent(q)}`, { as: "u" });
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`).join(" ");
    let r = await search(terms(32));
    assert.equal(r.status, 200);
    await r.body?.cancel();
    r = await search(terms(31) + " type:pdf");
    assert.equal(r.status, 200, "type filters count as terms");
    await r.body?.cancel();
    // The report's query: 6,000 terms (six seconds over 50,000 files) is refused before anything is searched.
    for (
      const q of [terms(33), terms(30) + " type:pdf type:image type:video", terms(6000), "x".repeat(501)]
    ) {
      r = await search(q);
      assert.equal(r.status, 400, q.slice(0, 40));
      assert.match(await r.text(), /at most 32 words and filters and 500 characters/);
    }
    r = await search("x".repeat(500));
    assert.equal(r.status, 200);
    await r.body?.cancel();
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/resources/recursive: role matrix, pruning, traversal", async () => {
  const f = await filesFixture();
  try {
    let r = await f.request("/api/resources/recursive/docs");
    assert.equal(r.status, 401);
    await r.body?.cancel();
    r = await f.request("/api/resources/recursive/docs", { as: "ro" });
    assert.equal(r.status, 200);
    const entries = await r.json();
    assert.deepEqual(entries.map((e: { path: string }) => e.path), ["/docs/readme.md"]);
    assert.deepEqual(Object.keys(entries[0]), ["path", "name", "size", "modified", "isDir"]);
    r = await f.request("/api/resources/recursive/", { as: "u" });
    const all = JSON.stringify(await r.json());
    assert.ok(!all.includes("rule-hidden") && !all.includes(".env") && !all.includes('"/a/x.txt"'), all);
    assert.ok(!all.includes("victim"));
    r = await f.request("/api/resources/recursive/evil-link", { as: "u" });
    assert.equal(r.status, 403);
    await r.body?.cancel();
    r = await f.request("/api/resources/recursive/a.txt", { as: "u" });
    assert.equal(r.status, 400);
    assert.equal(await r.text(), "400 Bad Request (path is not a directory)\n");
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/resources/recursive lists exactly the links the folder listing shows", async () => {
  const f = await filesFixture();
  try {
    // Links to a hidden dot-file, a file a global rule denies, a folder the user's rule denies, and a fine one.
    await Deno.symlink(".env", `${f.home}/to-env`);
    await Deno.symlink("rule-hidden.txt", `${f.home}/to-rule`);
    await Deno.symlink("a", `${f.home}/to-a`);
    await Deno.symlink("missing-inside", `${f.home}/dangling-inside`);
    await Deno.mkdir(`${f.home}/sub`);
    await Deno.symlink("../.env", `${f.home}/sub/deep-env`);
    await Deno.symlink("../docs", `${f.home}/sub/deep-docs`);
    const listed = async (folder: string) => {
      const r = await f.request(`/api/resources/${folder}`, { as: "u" });
      assert.equal(r.status, 200);
      return ((await r.json()).items as { name: string; isSymlink: boolean }[])
        .filter((i) => i.isSymlink).map((i) => i.name).sort();
    };
    const r = await f.request("/api/resources/recursive/", { as: "u" });
    assert.equal(r.status, 200);
    const paths = (await r.json() as { path: string }[]).map((e) => e.path);
    const links = ["/dangling", "/dangling-inside", "/escape.txt", "/evil-link", "/good-link.md", "/to-a"]
      .concat(["/to-env", "/to-rule", "/sub/deep-env", "/sub/deep-docs"]);
    const shown = links.filter((l) => paths.includes(l)).sort();
    assert.deepEqual(shown, ["/dangling-inside", "/good-link.md", "/sub/deep-docs"]);
    const inListings = [
      ...(await listed("")).map((n) => `/${n}`),
      ...(await listed("sub/")).map((n) => `/sub/${n}`),
    ].sort();
    assert.deepEqual(shown, inListings);
    // Links are never entered.
    assert.ok(!paths.includes("/sub/deep-docs/readme.md"), JSON.stringify(paths));
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/subtitle: role matrix, conversion, traversal", async () => {
  const f = await filesFixture();
  try {
    await Deno.writeTextFile(
      `${f.home}/sample.srt`,
      "1\n00:00:01,000 --> 00:00:02,000\nFirst<br>Second<BR/>Third<br />Fourth\n",
    );
    let r = await f.request("/api/subtitle/sample.srt?inline=true");
    assert.equal(r.status, 401);
    await r.body?.cancel();
    r = await f.request("/api/subtitle/sample.srt?inline=true", { as: "nodl" });
    assert.equal(r.status, 202);
    await r.body?.cancel();
    r = await f.request("/api/subtitle/sample.srt?inline=true", { as: "u" });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("Content-Type"), "text/vtt; charset=utf-8");
    const vtt = await r.text();
    assert.ok(vtt.startsWith("WEBVTT"));
    assert.ok(vtt.includes("First\nSecond\nThird\nFourth"));
    assert.ok(!vtt.includes("FirstSecond"));
    r = await f.request("/api/subtitle/home/sample.srt", { as: "admin" });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    r = await f.request("/api/subtitle/a.txt", { as: "u" });
    assert.equal(r.status, 400);
    await r.body?.cancel();
    await Deno.symlink(`${f.outside}/secret.txt`, `${f.home}/leak.srt`);
    for (const path of ["leak.srt", "evil-link/secret.srt", "rule-hidden.txt", ".env"]) {
      r = await f.request(`/api/subtitle/${path}`, { as: "u" });
      assert.equal(r.status, 403, path);
      assert.ok(!(await r.text()).includes(SECRET));
    }
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/preview: role matrix, resize, raw fallback, 501, traversal", async () => {
  const f = await filesFixture();
  try {
    const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#c04020" } }).png()
      .toBuffer();
    await Deno.writeFile(`${f.home}/pic.png`, png);
    let r = await f.request("/api/preview/thumb/pic.png");
    assert.equal(r.status, 401);
    await r.body?.cancel();
    r = await f.request("/api/preview/thumb/pic.png", { as: "nodl" });
    assert.equal(r.status, 202);
    await r.body?.cancel();
    r = await f.request("/api/preview/huge/pic.png", { as: "u" });
    assert.equal(r.status, 400);
    assert.equal(await r.text(), "400 Bad Request (huge is not a valid PreviewSize, try [thumb, big])\n");
    r = await f.request("/api/preview/thumb/pic.png?inline=true", { as: "u" });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("Content-Type"), "image/jpeg");
    const meta = await sharp(new Uint8Array(await r.arrayBuffer())).metadata();
    assert.equal(meta.width, 256);
    assert.equal(meta.height, 256);
    r = await f.request("/api/preview/big/home/pic.png", { as: "admin" });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    r = await f.request("/api/preview/thumb/a.txt", { as: "u" });
    assert.equal(r.status, 501);
    await r.body?.cancel();
    await Deno.writeFile(`${f.outside}/leak.png`, png);
    await Deno.symlink(`${f.outside}/leak.png`, `${f.home}/leak.png`);
    for (const t of TRAVERSALS) {
      r = await f.request(`/api/preview/thumb/${t.path}`, { as: "u" });
      assert.notEqual(r.status, 200, t.label);
      await r.body?.cancel();
    }
    r = await f.request("/api/preview/thumb/leak.png", { as: "u" });
    assert.equal(r.status, 403);
    await r.body?.cancel();
    // The cache lives outside the files root.
    const cache = f.deps.config.cacheDir;
    assert.ok(!cache.startsWith(f.root + "/"));
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/preview: thumbnails disabled serve the file as it is", async () => {
  const f = await filesFixture({ config: { enableThumbs: false, resizePreview: false } });
  try {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#000" } }).png()
      .toBuffer();
    await Deno.writeFile(`${f.home}/pic.png`, png);
    const r = await f.request("/api/preview/thumb/pic.png?inline=true", { as: "u" });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("Content-Type"), "image/png");
    assert.deepEqual(new Uint8Array(await r.arrayBuffer()), new Uint8Array(png));
  } finally {
    await f.close();
  }
});
