/** HTTP tests of /api/raw (docs/api.md#downloads): single files, ranges, caching, unsafe types, archives. */
import assert from "node:assert/strict";
import { exists, filesFixture, SECRET, TRAVERSALS } from "../fixtures/fs/tree.ts";

async function unzipList(bytes: Uint8Array, dir: string): Promise<{ names: string[]; dir: string }> {
  const zip = `${dir}/out.zip`;
  await Deno.writeFile(zip, bytes);
  const out = `${dir}/unzipped`;
  const list = new Deno.Command("zipinfo", { args: ["-1", zip], stdout: "piped" }).outputSync();
  assert.equal(list.code, 0, "zipinfo reads the archive");
  const x = new Deno.Command("unzip", { args: ["-q", "-o", zip, "-d", out] }).outputSync();
  assert.equal(x.code, 0, "unzip extracts the archive");
  return { names: new TextDecoder().decode(list.stdout).trim().split("\n").filter(Boolean), dir: out };
}

Deno.test("GET /api/raw: role matrix and headers of a single file", async () => {
  const f = await filesFixture();
  try {
    let r = await f.request("/api/raw/docs/readme.md");
    assert.equal(r.status, 401);
    r = await f.request("/api/raw/docs/readme.md", { as: "nodl" });
    assert.equal(r.status, 202);
    assert.equal(await r.text(), "202 Accepted\n");
    r = await f.request("/api/raw/docs/readme.md", { as: "ro" });
    assert.equal(r.status, 202);
    await r.body?.cancel();
    r = await f.request("/api/raw/docs/readme.md", { as: "u" });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("Content-Type"), "application/octet-stream");
    assert.equal(r.headers.get("Content-Disposition"), "attachment; filename*=utf-8''readme.md");
    assert.equal(r.headers.get("X-Content-Type-Options"), "nosniff");
    assert.equal(r.headers.get("Cache-Control"), "private");
    assert.equal(r.headers.get("Accept-Ranges"), "bytes");
    assert.ok(r.headers.get("Last-Modified"));
    const etag = r.headers.get("ETag")!;
    assert.equal(await r.text(), "README");
    r = await f.request("/api/raw/docs/readme.md?inline=true", { as: "u" });
    assert.equal(r.status, 200);
    assert.match(r.headers.get("Content-Type")!, /^text\/markdown/);
    assert.equal(r.headers.get("Content-Disposition"), "inline; filename*=utf-8''readme.md");
    assert.match(r.headers.get("Content-Security-Policy")!, /sandbox/);
    await r.body?.cancel();
    r = await f.request("/api/raw/docs/readme.md", { as: "u", headers: { Range: "bytes=1-3" } });
    assert.equal(r.status, 206);
    assert.equal(r.headers.get("Content-Range"), "bytes 1-3/6");
    assert.equal(await r.text(), "EAD");
    r = await f.request("/api/raw/docs/readme.md", { as: "u", headers: { Range: "bytes=50-" } });
    assert.equal(r.status, 416);
    assert.equal(r.headers.get("Content-Range"), "bytes */6");
    await r.body?.cancel();
    r = await f.request("/api/raw/docs/readme.md", { as: "u", headers: { "If-None-Match": etag } });
    assert.equal(r.status, 304);
    assert.equal(await r.text(), "");
    r = await f.request("/api/raw/home/docs/readme.md", { as: "admin" });
    assert.equal(r.status, 200);
    assert.equal(await r.text(), "README");
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/raw: HTML and SVG are never rendered inline from our origin", async () => {
  const f = await filesFixture();
  try {
    await Deno.writeTextFile(`${f.home}/page.html`, "<script>alert(document.cookie)</script>");
    await Deno.writeTextFile(
      `${f.home}/pic.svg`,
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    for (const name of ["page.html", "pic.svg"]) {
      const r = await f.request(`/api/raw/${name}?inline=true`, { as: "u" });
      assert.equal(r.status, 200);
      assert.match(r.headers.get("Content-Disposition")!, /^attachment;/, name);
      assert.match(r.headers.get("Content-Security-Policy")!, /sandbox/);
      assert.equal(r.headers.get("X-Content-Type-Options"), "nosniff");
      await r.body?.cancel();
    }
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/raw: the traversal set never leaks", async () => {
  const f = await filesFixture();
  try {
    for (const t of TRAVERSALS) {
      const r = await f.request(`/api/raw/${t.path}`, { as: "u" });
      const body = await r.text();
      assert.equal(r.status, t.read, `${t.label}: ${t.path}`);
      assert.ok(!body.includes(SECRET), t.label);
    }
    const r = await f.request("/api/raw/ab/x.txt", { as: "u" });
    assert.equal(r.status, 200);
    assert.equal(await r.text(), "ABX");
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/raw: a folder downloads as a zip without denied, hidden or escaping entries", async () => {
  const f = await filesFixture();
  try {
    let r = await f.request("/api/raw/?algo=zip", { as: "nodl" });
    assert.equal(r.status, 202);
    await r.body?.cancel();
    r = await f.request("/api/raw/?algo=zip", { as: "u" });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("Content-Type"), "application/zip");
    assert.equal(r.headers.get("Content-Disposition"), "attachment; filename*=utf-8''home.zip");
    const bytes = new Uint8Array(await r.arrayBuffer());
    const { names, dir } = await unzipList(bytes, f.dir);
    assert.deepEqual(names.map((n) => n.replace(/\/$/, "")).sort(), [
      "a.txt",
      "ab",
      "ab/x.txt",
      "back_slash.txt",
      "docs",
      "docs/readme.md",
      "good-link.md",
    ]);
    assert.equal(
      await Deno.readTextFile(`${dir}/good-link.md`),
      "README",
      "in-scope links archived as their target",
    );
    assert.equal(await Deno.readTextFile(`${dir}/ab/x.txt`), "ABX");
    assert.ok(!new TextDecoder().decode(bytes).includes(SECRET));
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/raw: selections with files= and tar.gz; backslash names cannot slip", async () => {
  const f = await filesFixture();
  try {
    await Deno.mkdir(`${f.home}/ziptest`);
    await Deno.writeTextFile(`${f.home}/ziptest/..\\..\\evil.sh`, "evil");
    // The admin: user u hides dot-files, and this name starts with a dot.
    let r = await f.request("/api/raw/home/ziptest?algo=zip", { as: "admin" });
    assert.equal(r.status, 200);
    const { names } = await unzipList(new Uint8Array(await r.arrayBuffer()), f.dir);
    assert.deepEqual(names, [".._.._evil.sh"]);
    const files = encodeURIComponent(
      ["ab", "docs/readme.md", "escape.txt", "evil-link", "rule-hidden.txt", "a", "../../secret.txt"].map((
        p,
      ) => p.split("/").map(encodeURIComponent).join("/")).join(","),
    );
    r = await f.request(`/api/raw/?files=${files}&algo=targz`, { as: "u" });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("Content-Disposition"), "attachment; filename*=utf-8''home.tar.gz");
    const tgz = `${f.dir}/sel.tar.gz`;
    await Deno.writeFile(tgz, new Uint8Array(await r.arrayBuffer()));
    const list = new Deno.Command("tar", { args: ["-tzf", tgz], stdout: "piped" }).outputSync();
    assert.equal(list.code, 0);
    const entries = new TextDecoder().decode(list.stdout).trim().split("\n").map((n) => n.replace(/\/$/, ""))
      .sort();
    assert.deepEqual(entries, ["ab", "ab/x.txt", "docs/readme.md"]);
    r = await f.request("/api/raw/evil-link/?algo=zip", { as: "u" });
    assert.equal(r.status, 403);
    await r.body?.cancel();
    r = await f.request("/api/raw/?algo=rar", { as: "u" });
    assert.equal(r.status, 400);
    await r.body?.cancel();
    assert.equal(await exists(`${f.outside}/secret.txt`), true);
  } finally {
    await f.close();
  }
});
