/** HTTP tests of share links (docs/api.md#shares): management, public access, the upstream share test cases. */
import assert from "node:assert/strict";
import { parse } from "../../framework/serialize.ts";
import { type TestApp, testApp } from "../_helpers.ts";
import { shares } from "../../lib/storage/mod.ts";
import { hashPassword } from "../../lib/auth/passwords.ts";

const SHARER = { share: true, download: true };

async function put(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

async function link(
  f: TestApp,
  spec: { hash: string; path: string; user: string; password?: string; token?: string; expire?: number },
): Promise<void> {
  await shares.createShare(f.deps.kv, {
    hash: spec.hash,
    path: spec.path,
    userID: f.users[spec.user].id,
    expire: spec.expire ?? 0,
    passwordHash: spec.password ? await hashPassword(spec.password) : "",
    token: spec.token ?? "",
  });
}

async function status(f: TestApp, path: string, init: RequestInit & { as?: string } = {}): Promise<number> {
  const r = await f.request(path, init);
  await r.body?.cancel();
  return r.status;
}

async function unzipNames(bytes: Uint8Array, dir: string): Promise<{ names: string[]; all: string }> {
  await Deno.writeFile(`${dir}/out.zip`, bytes);
  const list = new Deno.Command("zipinfo", { args: ["-1", `${dir}/out.zip`], stdout: "piped" }).outputSync();
  assert.equal(list.code, 0, "zipinfo reads the archive");
  const all = new Deno.Command("unzip", { args: ["-p", `${dir}/out.zip`], stdout: "piped" }).outputSync();
  const dec = new TextDecoder();
  return { names: dec.decode(list.stdout).trim().split("\n").filter(Boolean), all: dec.decode(all.stdout) };
}

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

Deno.test("share API: permission matrix, body validation, expiry and delete", async () => {
  const f = await testApp({
    users: [
      { username: "u", perm: SHARER },
      { username: "v", perm: SHARER },
      { username: "noshare", perm: { download: true } },
      { username: "nodl", perm: { share: true } },
    ],
  });
  try {
    await put(`${f.root}/file.txt`, "x");
    await Deno.mkdir(`${f.root}/dir`);
    for (const who of ["noshare", "nodl"]) {
      assert.equal(await status(f, "/api/shares", { as: who }), 403, who);
      assert.equal(await status(f, "/api/share/file.txt", { as: who }), 403, who);
      assert.equal(await status(f, "/api/share/file.txt", { as: who, method: "POST", body: "{}" }), 403, who);
      assert.equal(await status(f, "/api/share/abcdefgh", { as: who, method: "DELETE" }), 403, who);
    }
    assert.equal(await status(f, "/api/shares"), 401);
    assert.equal(await status(f, "/api/public/share/x"), 404);
    let r = await f.request("/api/share/file.txt", { as: "u", method: "POST" });
    assert.equal(r.status, 400);
    assert.match(await r.text(), /EOF/);
    assert.equal(
      await status(f, "/api/share/file.txt", { as: "u", method: "POST", body: '{"expires":3}' }),
      400,
    );
    assert.equal(await status(f, "/api/share/nope.txt", { as: "u", method: "POST", body: "{}" }), 404);
    r = await f.request("/api/share/file.txt?expires=&unit=hours", { as: "u", method: "POST", body: "{}" });
    assert.equal(r.status, 200);
    const open = await r.json();
    assert.match(open.hash, /^[A-Za-z0-9_-]{8}$/);
    assert.deepEqual(open, {
      hash: open.hash,
      path: "/file.txt",
      userID: f.users.u.id,
      expire: 0,
      hasPassword: false,
      created: open.created,
    });
    const now = Math.floor(Date.now() / 1000);
    assert.ok(
      typeof open.created === "number" && Math.abs(open.created - now) <= 5,
      "new links carry created",
    );
    r = await f.request("/api/share/dir/", {
      as: "u",
      method: "POST",
      body: JSON.stringify({ expires: "2", unit: "days" }),
    });
    const timed = await r.json();
    assert.equal(timed.path, "/dir/");
    assert.ok(Math.abs(timed.expire - (now + 2 * 86400)) <= 2);
    r = await f.request("/api/share/dir/", {
      as: "u",
      method: "POST",
      body: '{"expires":"5","unit":"weird"}',
    });
    assert.ok(Math.abs((await r.json()).expire - (now + 5 * 3600)) <= 2, "unknown unit = hours");
    r = await f.request("/api/share/dir/", { as: "u", method: "POST", body: '{"expires":"x"}' });
    assert.equal(r.status, 400);
    await r.body?.cancel();
    // Trailing slash is significant for a non-admin lookup.
    r = await f.request("/api/share/dir/", { as: "u" });
    assert.equal((await r.json()).length, 2);
    r = await f.request("/api/share/dir", { as: "u" });
    assert.deepEqual(await r.json(), []);
    r = await f.request("/api/shares", { as: "u" });
    const mine = await r.json();
    assert.equal(mine.length, 3);
    assert.deepEqual(
      mine.map((s: { expire: number }) => s.expire),
      [...mine.map((s: { expire: number }) => s.expire)].sort((a, b) => a - b),
    );
    r = await f.request("/api/shares", { as: "v" });
    assert.deepEqual(await r.json(), []);
    // Expired links vanish (lazily).
    r = await f.request("/api/share/file.txt", {
      as: "v",
      method: "POST",
      body: '{"expires":"0","unit":"seconds"}',
    });
    const expired = await r.json();
    assert.equal(await status(f, `/api/public/share/${expired.hash}`), 404);
    assert.equal(await status(f, `/api/share/${expired.hash}`, { as: "v", method: "DELETE" }), 404);
    r = await f.request("/api/shares", { as: "admin" });
    assert.equal((await r.json()).length, 3, "admin sees every live link");
    // Delete: 400 empty, 403 someone else's, admin may.
    assert.equal(await status(f, "/api/share/", { as: "u", method: "DELETE" }), 400);
    assert.equal(await status(f, `/api/share/${open.hash}`, { as: "v", method: "DELETE" }), 403);
    r = await f.request(`/api/share/${open.hash}`, { as: "u", method: "DELETE" });
    assert.equal(r.status, 200);
    assert.equal(await r.text(), "200 OK\n");
    assert.equal(await status(f, `/api/public/share/${open.hash}`), 404);
    assert.equal(await status(f, `/api/share/${timed.hash}`, { as: "admin", method: "DELETE" }), 200);
  } finally {
    await f.close();
  }
});

Deno.test("share API: custom links (valid, invalid, taken)", async () => {
  const f = await testApp({ users: [{ username: "u", perm: SHARER }] });
  try {
    await put(`${f.root}/report.pdf`, "%PDF");
    const post = (body: unknown) =>
      f.request("/api/share/report.pdf", { as: "u", method: "POST", body: JSON.stringify(body) });
    let r = await post({ custom: true, customLink: "report.pdf" });
    assert.equal(r.status, 200);
    assert.equal((await r.json()).hash, "report.pdf");
    r = await f.request("/api/public/dl/report.pdf");
    assert.equal(await r.text(), "%PDF");
    r = await post({ custom: true, customLink: "report.pdf" });
    assert.equal(r.status, 409);
    await r.body?.cancel();
    for (const bad of ["", "---", "..", "a/b", "a b", "ü", ".x", "x".repeat(200)]) {
      r = await post({ custom: true, customLink: bad });
      assert.equal(r.status, 400, JSON.stringify(bad));
      await r.body?.cancel();
    }
    r = await post({ custom: false, customLink: "ignored" });
    assert.match((await r.json()).hash, /^[A-Za-z0-9_-]{8}$/);
  } finally {
    await f.close();
  }
});

Deno.test("share API: admin sees owners' shares by on-disk path", async () => {
  const f = await testApp({ users: [{ username: "owner", perm: SHARER, scope: "/owner" }] });
  try {
    await put(`${f.root}/owner/file.txt`, "x");
    await link(f, { hash: "h", path: "/file.txt", user: "owner" });
    const r = await f.request("/api/share/owner/file.txt", { as: "admin" });
    assert.equal(r.status, 200);
    const list = await r.json();
    assert.equal(list.length, 1);
    assert.equal(list[0].hash, "h");
    const own = await f.request("/api/share/file.txt", { as: "owner" });
    assert.equal((await own.json())[0].hash, "h");
  } finally {
    await f.close();
  }
});

Deno.test("share API: no secrets in responses", async () => {
  const f = await testApp({ users: [{ username: "u", perm: SHARER }] });
  try {
    await put(`${f.root}/file.txt`, "x");
    let r = await f.request("/api/share/file.txt", {
      as: "u",
      method: "POST",
      body: JSON.stringify({ password: "ShareSecret123!", expires: "24", unit: "hours" }),
    });
    assert.equal(r.status, 200);
    const created = await r.json();
    assert.ok(!("password_hash" in created) && !("passwordHash" in created) && !("token" in created));
    assert.equal(created.hasPassword, true);
    const stored = await shares.findShare(f.deps.kv, created.hash, Date.now());
    assert.ok(stored?.passwordHash.startsWith("$2"));
    assert.equal(stored?.token.length, 128);
    for (const path of ["/api/shares", "/api/share/file.txt"]) {
      r = await f.request(path, { as: "u" });
      const text = await r.text();
      assert.ok(!text.includes(stored!.token) && !text.includes("$2"), path);
      assert.equal(JSON.parse(text)[0].hasPassword, true);
    }
  } finally {
    await f.close();
  }
});

Deno.test("share pages: /share/<hash> is public, /settings/shares needs a session", async () => {
  const f = await testApp({ users: [{ username: "u", perm: SHARER }] });
  try {
    let r = await f.request("/share/abcdefgh/sub/x.txt");
    assert.equal(r.status, 200);
    const html = await r.text();
    assert.match(html, /data-island-root="SharePage"/);
    const props = html.match(/data-island-props="SharePage">([\s\S]*?)<\/script>/);
    assert.equal((parse(props![1]) as { hash: string }).hash, "abcdefgh");
    r = await f.request("/settings/shares", { redirect: "manual" });
    assert.equal(r.status, 302);
    assert.match(r.headers.get("Location")!, /\/login\?redirect=/);
    await r.body?.cancel();
    r = await f.request("/settings/shares", { headers: { Cookie: `auth=${f.tokens.u}` } });
    assert.equal(r.status, 200);
    assert.match(await r.text(), /data-island-root="ShareManager"/);
  } finally {
    await f.close();
  }
});
