/** HTTP tests of public share access (docs/api.md#shares): authentication, shapes, rules, links, traversal. */
import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import { link, put, SHARER, status, unzipNames } from "./_shares.ts";

Deno.test("public share: authentication matrix on /api/public/share and /api/public/dl", async () => {
  const f = await testApp({ users: [{ username: "owner", perm: SHARER }] });
  try {
    await put(`${f.root}/doc.txt`, "hello");
    await link(f, { hash: "open0001", path: "/doc.txt", user: "owner" });
    await link(f, { hash: "pass0001", path: "/doc.txt", user: "owner", password: "password", token: "123" });
    for (const route of ["share", "dl"]) {
      const base = `/api/public/${route}`;
      assert.equal(await status(f, `${base}/open0001`), 200, `${route} a`);
      assert.equal(await status(f, `${base}/pass0001`), 401, `${route} b`);
      assert.equal(await status(f, `${base}/pass0001?token=123`), 200, `${route} c`);
      assert.equal(await status(f, `${base}/pass0001?token=1234`), 401, `${route} d`);
      const ok = { headers: { "X-SHARE-PASSWORD": "password" } };
      assert.equal(await status(f, `${base}/pass0001`, ok), 200, `${route} e`);
      const bad = { headers: { "X-SHARE-PASSWORD": "wrong-password" } };
      assert.equal(await status(f, `${base}/pass0001`, bad), 401, `${route} f`);
      assert.equal(await status(f, `${base}/nothere1`), 404, `${route} unknown`);
    }
    const owner = f.users.owner;
    await f.deps.kv.set(["users", "by_id", owner.id], { ...owner, perm: { ...owner.perm, share: false } });
    assert.equal(await status(f, "/api/public/share/open0001"), 403, "g share");
    assert.equal(await status(f, "/api/public/dl/open0001"), 403, "g dl");
    await f.deps.kv.set(["users", "by_id", owner.id], { ...owner, perm: { ...owner.perm, download: false } });
    assert.equal(await status(f, "/api/public/share/open0001"), 403, "h share");
    assert.equal(await status(f, "/api/public/dl/open0001"), 403, "h dl");
  } finally {
    await f.close();
  }
});

Deno.test("public share: percent-encoded password header, token in metadata, brute force throttled", async () => {
  const f = await testApp({ users: [{ username: "owner", perm: SHARER }], config: { loginRateLimit: 3 } });
  try {
    await put(`${f.root}/dir/a.txt`, "A");
    await link(f, {
      hash: "pw000001",
      path: "/dir",
      user: "owner",
      password: "pä ss+/",
      token: "T".repeat(128),
    });
    const hdr = { "X-SHARE-PASSWORD": encodeURIComponent("pä ss+/") };
    let r = await f.request("/api/public/share/pw000001", { headers: hdr });
    assert.equal(r.status, 200);
    const body = await r.json();
    assert.equal(body.token, "T".repeat(128));
    r = await f.request("/api/public/dl/pw000001/a.txt?token=" + "T".repeat(128));
    assert.equal(await r.text(), "A");
    const bad = { headers: { "X-SHARE-PASSWORD": "nope" } };
    for (let i = 0; i < 3; i++) assert.equal(await status(f, "/api/public/share/pw000001", bad), 401);
    // The client is now throttled, even with the right password.
    assert.equal(await status(f, "/api/public/share/pw000001", bad), 429);
    assert.equal(await status(f, "/api/public/share/pw000001", { headers: hdr }), 429);
  } finally {
    await f.close();
  }
});

Deno.test("public share: metadata shapes (folder listing, sub-folder name quirk, single file)", async () => {
  const f = await testApp({ users: [{ username: "owner", perm: SHARER }] });
  try {
    await put(`${f.root}/proj/b.txt`, "B");
    await put(`${f.root}/proj/a.txt`, "A");
    await put(`${f.root}/proj/sub/c.txt`, "C");
    await put(`${f.root}/note.txt`, "note");
    await link(f, { hash: "dir00001", path: "/proj/", user: "owner" });
    await link(f, { hash: "file0001", path: "/note.txt", user: "owner" });
    let r = await f.request("/api/public/share/dir00001");
    assert.equal(r.status, 200);
    let body = await r.json();
    assert.equal(body.name, "proj");
    assert.equal(body.isDir, true);
    assert.deepEqual(body.sorting, { by: "name", asc: false });
    assert.deepEqual(body.items.map((i: { path: string }) => i.path), ["/sub", "/a.txt", "/b.txt"]);
    assert.equal(body.token, undefined);
    r = await f.request("/api/public/share/dir00001/sub/");
    body = await r.json();
    assert.equal(body.name, "proj", "the share root's name, even for a sub-folder");
    assert.equal(body.path, "/sub/");
    assert.deepEqual(body.items.map((i: { path: string }) => i.path), ["/sub/c.txt"]);
    r = await f.request("/api/public/share/dir00001/a.txt");
    body = await r.json();
    assert.equal(body.path, "/a.txt");
    assert.equal(body.content, undefined);
    r = await f.request("/api/public/share/file0001/ignored/sub");
    body = await r.json();
    assert.equal(body.path, "");
    assert.equal(body.name, "note.txt");
    assert.equal(body.content, undefined);
    await put(`${f.root}/movie.mp4`, "");
    await put(`${f.root}/movie.en.vtt`, "WEBVTT");
    await link(f, { hash: "film0001", path: "/movie.mp4", user: "owner" });
    r = await f.request("/api/public/share/film0001");
    body = await r.json();
    assert.equal(body.type, "video");
    assert.equal(body.subtitles, undefined, "no paths outside a single-file share");
    await link(f, { hash: "root0001", path: "/", user: "owner" });
    r = await f.request("/api/public/share/root0001/movie.mp4");
    assert.deepEqual((await r.json()).subtitles, ["/movie.en.vtt"], "inside a folder share they are listed");
    r = await f.request("/api/public/dl/file0001");
    assert.equal(await r.text(), "note");
    r = await f.request("/api/public/dl/dir00001/sub/c.txt?inline=true");
    assert.match(r.headers.get("Content-Disposition")!, /^inline/);
    assert.equal(await r.text(), "C");
    r = await f.request("/api/public/dl/dir00001/?files=" + encodeURIComponent("/a.txt") + "&algo=zip");
    assert.equal(r.status, 200);
    const { names } = await unzipNames(new Uint8Array(await r.arrayBuffer()), f.dir);
    assert.deepEqual(names, ["a.txt"]);
  } finally {
    await f.close();
  }
});

Deno.test("public share: owner rules apply below the share root", async () => {
  const f = await testApp({
    users: [{
      username: "owner",
      perm: SHARER,
      rules: [{ regex: false, allow: false, path: "/projects/private", regexp: null }],
    }],
  });
  try {
    await put(`${f.root}/projects/private/secret.txt`, "secret");
    await put(`${f.root}/projects/public/readme.txt`, "readme");
    await link(f, { hash: "h", path: "/projects", user: "owner" });
    assert.equal(await status(f, "/api/public/dl/h/private/secret.txt"), 403);
    assert.equal(await status(f, "/api/public/share/h/private/"), 403);
    assert.equal(await status(f, "/api/public/dl/h/private/"), 403);
    assert.equal(await status(f, "/api/public/dl/h/public/readme.txt"), 200);
    assert.equal(await status(f, "/api/public/share/h/public/"), 200);
    const r = await f.request("/api/public/share/h/");
    assert.ok(!(await r.text()).includes("private"), "denied folder not listed");
  } finally {
    await f.close();
  }
});

Deno.test("public share: symlinks escaping the share and traversal are refused", async () => {
  const f = await testApp({ users: [{ username: "owner", perm: SHARER, scope: "/u" }] });
  try {
    const scope = `${f.root}/u`;
    await put(`${scope}/private/secret.txt`, "symlink-secret");
    await put(`${scope}/shared/ok.txt`, "fine");
    await Deno.symlink(`${scope}/private`, `${scope}/shared/link`);
    await link(f, { hash: "h", path: "/shared", user: "owner" });
    for (const p of ["/api/public/dl/h/link/secret.txt", "/api/public/share/h/link/secret.txt"]) {
      assert.notEqual(await status(f, p), 200, p);
    }
    assert.notEqual(await status(f, "/api/public/share/h/link/"), 200);
    let r = await f.request("/api/public/share/h/");
    assert.equal(r.status, 200);
    assert.ok(!(await r.text()).includes('"link"'), "escaping link omitted");
    for (const t of ["/../private/secret.txt", "/%2e%2e/private/secret.txt", "/..%2fprivate%2fsecret.txt"]) {
      r = await f.request(`/api/public/dl/h${t}`, { redirect: "manual" });
      const text = await r.text();
      assert.ok(!text.includes("symlink-secret"), `traversal ${t} → ${r.status}`);
    }
    r = await f.request("/api/public/dl/h/");
    assert.equal(r.status, 200);
    assert.match(r.headers.get("Content-Disposition")!, /shared\.zip/);
    const zip = await unzipNames(new Uint8Array(await r.arrayBuffer()), f.dir);
    assert.ok(zip.names.includes("ok.txt"));
    assert.ok(!zip.names.some((n) => n.includes("secret.txt")), zip.names.join());
    assert.ok(!zip.all.includes("symlink-secret"));
  } finally {
    await f.close();
  }
});

Deno.test("public share: followExternalSymlinks follows links out of the share", async () => {
  const f = await testApp({
    users: [{ username: "owner", perm: SHARER, scope: "/u" }],
    config: { followExternalSymlinks: true },
  });
  try {
    const scope = `${f.root}/u`;
    await put(`${scope}/outside/data.txt`, "payload");
    await Deno.mkdir(`${scope}/shared`);
    await Deno.symlink(`${scope}/outside`, `${scope}/shared/link`);
    await link(f, { hash: "h", path: "/shared", user: "owner" });
    let r = await f.request("/api/public/dl/h/link/data.txt");
    assert.equal(r.status, 200);
    assert.match(await r.text(), /payload/);
    r = await f.request("/api/public/share/h/");
    assert.equal(r.status, 200);
    assert.match(await r.text(), /"link"/);
  } finally {
    await f.close();
  }
});
