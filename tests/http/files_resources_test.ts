/** HTTP tests of /api/resources (docs/api.md#resources): role matrix, traversal set, atomic writes. */
import assert from "node:assert/strict";
import { shares } from "../../lib/storage/mod.ts";
import { escapeTargets, exists, filesFixture, SECRET, TRAVERSALS } from "../fixtures/fs/tree.ts";

Deno.test("GET /api/resources: role matrix", async () => {
  const f = await filesFixture();
  try {
    let r = await f.request("/api/resources/docs/readme.md");
    assert.equal(r.status, 401);
    assert.equal(await r.text(), "401 Unauthorized\n");
    for (const as of ["ro", "nodl"]) {
      r = await f.request("/api/resources/docs/readme.md", { as });
      assert.equal(r.status, 200, as);
      const body = await r.json();
      assert.equal(body.content, undefined, `${as} has no download: no content`);
      assert.equal(body.type, as === "ro" ? "textImmutable" : "text");
    }
    r = await f.request("/api/resources/docs/readme.md", { as: "u" });
    assert.equal(r.status, 200);
    assert.match(r.headers.get("Content-Type")!, /^application\/json/);
    const body = await r.json();
    assert.equal(body.content, "README");
    assert.equal(body.path, "/docs/readme.md");
    r = await f.request("/api/resources/home/docs/readme.md", { as: "admin" });
    assert.equal(r.status, 200);
    assert.equal((await r.json()).content, "README");
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/resources: listing hides what the user may not see and keeps the trailing slash", async () => {
  const f = await filesFixture();
  try {
    const r = await f.request("/api/resources/", { as: "u" });
    assert.equal(r.status, 200);
    const body = await r.json();
    assert.equal(body.path, "/");
    assert.equal(body.name, "");
    const names = body.items.map((i: { name: string }) => i.name);
    assert.deepEqual(names, ["ab", "docs", "a.txt", "back\\slash.txt", "good-link.md"]);
    assert.equal(body.numDirs, 2);
    assert.equal(body.numFiles, 3);
    assert.deepEqual(body.sorting, { by: "name", asc: false });
    const text = JSON.stringify(body);
    assert.ok(!text.includes("escape") && !text.includes("evil-link") && !text.includes("dangling"));
    const sub = await f.request("/api/resources/docs/", { as: "u" });
    assert.equal((await sub.json()).path, "/docs/");
    // The admin (no hiding, no user rule) sees more, but still not links leaving *his* scope.
    const admin = await (await f.request("/api/resources/home/", { as: "admin" })).json();
    const adminNames = admin.items.map((i: { name: string }) => i.name);
    assert.ok(adminNames.includes(".env") && adminNames.includes("a"));
    assert.ok(!adminNames.includes("evil-link") && !adminNames.includes("escape.txt"));
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/resources: the traversal set never leaves the scope", async () => {
  const f = await filesFixture();
  try {
    for (const t of TRAVERSALS) {
      const r = await f.request(`/api/resources/${t.path}`, { as: "u" });
      const body = await r.text();
      assert.equal(r.status, t.read, `${t.label}: ${t.path}`);
      assert.ok(!body.includes(SECRET), t.label);
    }
    const ok = await f.request("/api/resources/ab/x.txt", { as: "u" });
    assert.equal(ok.status, 200, "/a does not match /ab");
    assert.equal((await ok.json()).content, "ABX");
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/resources: checksum and X-Encoding need download (202)", async () => {
  const f = await filesFixture();
  try {
    let r = await f.request("/api/resources/docs/readme.md?checksum=sha256", { as: "nodl" });
    assert.equal(r.status, 202);
    const body = await r.text();
    assert.equal(body, "202 Accepted\n");
    assert.ok(!body.includes("checksum"));
    r = await f.request("/api/resources/docs/readme.md", { as: "nodl", headers: { "X-Encoding": "true" } });
    assert.equal(r.status, 202);
    r = await f.request("/api/resources/docs/readme.md?checksum=sha256", { as: "u" });
    assert.equal(r.status, 200);
    const sum = await r.json();
    const expected = Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode("README"))),
    )
      .map((b) => b.toString(16).padStart(2, "0")).join("");
    assert.deepEqual(sum.checksums, { sha256: expected });
    assert.equal(sum.content, undefined);
    r = await f.request("/api/resources/docs/readme.md?checksum=crc32", { as: "u" });
    assert.equal(r.status, 400);
    assert.equal(await r.text(), "400 Bad Request\n");
    r = await f.request("/api/resources/docs/readme.md", { as: "u", headers: { "X-Encoding": "true" } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("Content-Type"), "application/octet-stream");
    assert.equal(await r.text(), "README");
  } finally {
    await f.close();
  }
});

Deno.test("POST /api/resources: role matrix, mkdir, override, ETag", async () => {
  const f = await filesFixture();
  try {
    let r = await f.request("/api/resources/up.txt", { method: "POST", body: "x" });
    assert.equal(r.status, 401);
    r = await f.request("/api/resources/up.txt", { method: "POST", body: "x", as: "ro" });
    assert.equal(r.status, 403);
    assert.equal(await exists(`${f.home}/up.txt`), false);
    r = await f.request("/api/resources/up.txt?override=false", { method: "POST", body: "hello", as: "u" });
    assert.equal(r.status, 200);
    assert.equal(await r.text(), "200 OK\n");
    assert.match(r.headers.get("ETag")!, /^"[0-9a-f]+5"$/);
    assert.equal(await Deno.readTextFile(`${f.home}/up.txt`), "hello");
    r = await f.request("/api/resources/up.txt?override=false", { method: "POST", body: "again", as: "u" });
    assert.equal(r.status, 409);
    assert.equal(await r.text(), "409 Conflict\n");
    r = await f.request("/api/resources/up.txt?override=true", { method: "POST", body: "again", as: "u" });
    assert.equal(r.status, 200);
    assert.equal(await Deno.readTextFile(`${f.home}/up.txt`), "again");
    r = await f.request("/api/resources/newdir/sub/", { method: "POST", as: "u" });
    assert.equal(r.status, 200);
    assert.ok((await Deno.stat(`${f.home}/newdir/sub`)).isDirectory);
    r = await f.request("/api/resources/home/admin.txt", { method: "POST", body: "adm", as: "admin" });
    assert.equal(r.status, 200);
    assert.equal(await Deno.readTextFile(`${f.home}/admin.txt`), "adm");
    // A trailing slash made a folder; PUT on it is 405.
    r = await f.request("/api/resources/newdir/", { method: "PUT", body: "x", as: "u" });
    assert.equal(r.status, 405);
  } finally {
    await f.close();
  }
});

Deno.test("POST/PUT/DELETE /api/resources: the traversal set cannot write or delete outside", async () => {
  const f = await filesFixture();
  try {
    // Cleaned inside the scope: allowed, but must land in the user's folder.
    for (const path of ["..%2F..%2Finside.txt", "%2Fetc%2Finside.txt"]) {
      const r = await f.request(`/api/resources/${path}`, { method: "POST", body: "ok", as: "u" });
      assert.equal(r.status, 200, path);
    }
    assert.ok(await exists(`${f.home}/inside.txt`));
    assert.ok(await exists(`${f.home}/etc/inside.txt`));
    // A backslash is no separator here, but it is one on the user's machine: refused in new names.
    const bs = await f.request("/api/resources/docs%5C..%5C..%5Cinside.txt", {
      method: "POST",
      body: "x",
      as: "u",
    });
    assert.equal(bs.status, 400);
    await bs.body?.cancel();
    assert.equal(await exists(`${f.home}/docs\\..\\..\\inside.txt`), false);
    assert.equal(await exists(`${f.root}/inside.txt`), false);
    const writes = [
      "evil-link/new.txt",
      "evil-link/dir/new.txt",
      "dangling",
      "escape.txt",
      "rule-hidden.txt",
      "a/new.txt",
      ".env",
      "..%5Cnew.txt",
    ];
    for (const path of writes) {
      for (const method of ["POST", "PUT"]) {
        const r = await f.request(`/api/resources/${path}?override=true`, { method, body: "pwned", as: "u" });
        await r.body?.cancel();
        assert.equal(r.status, 403, `${method} ${path}`);
      }
    }
    for (const target of escapeTargets(f)) assert.equal(await exists(target), false, target);
    assert.equal(await Deno.readTextFile(`${f.outside}/secret.txt`), SECRET);
    assert.equal(await Deno.readTextFile(`${f.home}/.env`), "DOT");
    assert.equal(await Deno.readTextFile(`${f.home}/rule-hidden.txt`), "RULE");
    for (
      const path of [
        "escape.txt",
        "evil-link/dir/victim.txt",
        "evil-link",
        "rule-hidden.txt",
        "a",
        ".env",
        "",
      ]
    ) {
      const r = await f.request(`/api/resources/${path}`, { method: "DELETE", as: "u" });
      assert.equal(r.status, 403, `DELETE ${path}`);
    }
    assert.ok(await exists(`${f.outside}/dir/victim.txt`));
    assert.ok(await exists(`${f.home}/a/x.txt`));
    assert.ok(await exists(`${f.home}/evil-link`));
    // A failed upload never deletes through a symlink.
    const r = await f.request("/api/resources/evil-link/dir/victim.txt", {
      method: "POST",
      body: "x",
      as: "u",
    });
    assert.equal(r.status, 403);
    assert.equal(await Deno.readTextFile(`${f.outside}/dir/victim.txt`), SECRET);
  } finally {
    await f.close();
  }
});

Deno.test("PUT /api/resources: role matrix and atomic replace", async () => {
  const f = await filesFixture();
  try {
    let r = await f.request("/api/resources/a.txt", { method: "PUT", body: "x" });
    assert.equal(r.status, 401);
    r = await f.request("/api/resources/a.txt", { method: "PUT", body: "x", as: "ro" });
    assert.equal(r.status, 403);
    r = await f.request("/api/resources/missing.txt", { method: "PUT", body: "x", as: "u" });
    assert.equal(r.status, 404);
    r = await f.request("/api/resources/a.txt", { method: "PUT", body: "saved", as: "u" });
    assert.equal(r.status, 200);
    assert.equal(await r.text(), "200 OK\n");
    assert.ok(r.headers.get("ETag"));
    assert.equal(await Deno.readTextFile(`${f.home}/a.txt`), "saved");
    r = await f.request("/api/resources/home/a.txt", { method: "PUT", body: "admin", as: "admin" });
    assert.equal(r.status, 200);
    // A body that breaks mid-way leaves the old content and no temp file.
    let n = 0;
    const failing = new ReadableStream<Uint8Array>({
      pull(c) {
        if (n++ < 3) c.enqueue(new TextEncoder().encode("partial "));
        else c.error(new Error("connection reset"));
      },
    });
    r = await f.request(
      "/api/resources/a.txt",
      { method: "PUT", body: failing, as: "u", duplex: "half" } as RequestInit,
    );
    assert.equal(r.status, 500);
    await r.body?.cancel();
    assert.equal(await Deno.readTextFile(`${f.home}/a.txt`), "admin");
    const leftovers = (await Array.fromAsync(Deno.readDir(f.home))).filter((e) =>
      e.name.startsWith(".fb-tmp")
    );
    assert.deepEqual(leftovers, []);
  } finally {
    await f.close();
  }
});

Deno.test("DELETE /api/resources: role matrix, links, shares", async () => {
  const f = await filesFixture();
  try {
    let r = await f.request("/api/resources/a.txt", { method: "DELETE" });
    assert.equal(r.status, 401);
    r = await f.request("/api/resources/a.txt", { method: "DELETE", as: "ro" });
    assert.equal(r.status, 403);
    r = await f.request("/api/resources/a.txt", { method: "DELETE", as: "u" });
    assert.equal(r.status, 204);
    assert.equal(await r.text(), "");
    assert.equal(await exists(`${f.home}/a.txt`), false);
    r = await f.request("/api/resources/a.txt", { method: "DELETE", as: "u" });
    assert.equal(r.status, 404);
    r = await f.request("/api/resources/good-link.md", { method: "DELETE", as: "u" });
    assert.equal(r.status, 204);
    assert.ok(await exists(`${f.home}/docs/readme.md`), "deleting a link keeps its target");
    // Deleting removes the user's share links on the path and below, never a sibling like /docsx.
    const uid = f.users.u.id;
    const share = (hash: string, path: string) => ({
      hash,
      path,
      userID: uid,
      expire: 0,
      passwordHash: "",
      token: "",
    });
    await Deno.mkdir(`${f.home}/docsx`);
    for (const [h, p] of [["h1", "/docs"], ["h2", "/docs/readme.md"], ["h3", "/docsx"]]) {
      assert.ok(await shares.createShare(f.deps.kv, share(h, p)));
    }
    r = await f.request("/api/resources/docs", { method: "DELETE", as: "u" });
    assert.equal(r.status, 204);
    const left = (await shares.listShares(f.deps.kv, Date.now(), { userId: uid })).map((s) => s.path);
    assert.deepEqual(left, ["/docsx"]);
    r = await f.request("/api/resources/home/docsx", { method: "DELETE", as: "admin" });
    assert.equal(r.status, 204);
    assert.equal(await exists(`${f.home}/docsx`), false);
    assert.equal(await exists(`${f.home}/docs`), false);
  } finally {
    await f.close();
  }
});
