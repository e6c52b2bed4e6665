/**
 * Client input that the file system or KV cannot take (NUL bytes, over-long names and paths, over-sized keys
 * and values, CR/LF where a header is built) answers 400, 404 or 414 with a clear message, never 500, and
 * never logs an ERROR line.
 */
import assert from "node:assert/strict";
import { exists, filesFixture } from "../fixtures/fs/tree.ts";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import { users } from "../../lib/storage/mod.ts";
import { captureLog } from "./_log.ts";

/** The double encoding of PATCH `destination`. */
function dest(vpath: string): string {
  return encodeURIComponent(encodeURIComponent(vpath));
}

const LONG_NAME = "n".repeat(256);
const LONG_PATH = ("d".repeat(200) + "/").repeat(21) + "f.txt";

interface Case {
  method: string;
  url: string;
  status: number;
  message?: RegExp;
  headers?: Record<string, string>;
}

Deno.test("paths with a NUL byte, a name over 255 bytes or more than 4096 bytes answer 400/414", async () => {
  const f = await filesFixture();
  const log = captureLog();
  try {
    const tus = { "Upload-Length": "1" };
    const cases: Case[] = [];
    for (
      const [path, status, message] of [
        ["a%00b.txt", 400, /NUL/],
        ["docs/%00", 400, /NUL/],
        [LONG_NAME, 400, /longer than 255 bytes/],
        [`docs/${LONG_NAME}/x`, 400, /longer than 255 bytes/],
        [LONG_PATH, 414, undefined],
      ] as const
    ) {
      for (const method of ["GET", "POST", "PUT", "DELETE"]) {
        cases.push({ method, url: `/api/resources/${path}`, status, message });
      }
      cases.push({ method: "GET", url: `/api/resources/recursive/${path}`, status, message });
      cases.push({
        method: "PATCH",
        url: `/api/resources/${path}?action=copy&destination=%2Fx`,
        status,
        message,
      });
      cases.push({ method: "GET", url: `/api/raw/${path}`, status, message });
      cases.push({ method: "GET", url: `/api/preview/thumb/${path}`, status, message });
      cases.push({ method: "GET", url: `/api/subtitle/${path}`, status, message });
      cases.push({ method: "GET", url: `/api/usage/${path}`, status, message });
      // Search checks its folder before it streams, like every other path.
      cases.push({ method: "GET", url: `/api/search/${path}?query=x`, status, message });
      cases.push({ method: "POST", url: `/api/tus/${path}`, status, message, headers: tus });
      cases.push({ method: "HEAD", url: `/api/tus/${path}`, status });
      cases.push({ method: "POST", url: `/api/share/${path}`, status, message });
    }
    for (
      const [vpath, status, message] of [
        ["/a\0b.txt", 400, /NUL/],
        [`/${LONG_NAME}`, 400, /longer than 255 bytes/],
        [`/docs/${LONG_NAME}`, 400, /longer than 255 bytes/],
        ["/" + LONG_PATH, 414, undefined],
      ] as const
    ) {
      for (const action of ["copy", "rename"]) {
        cases.push({
          method: "PATCH",
          url: `/api/resources/a.txt?action=${action}&destination=${dest(vpath)}`,
          status,
          message,
        });
      }
    }
    for (const c of cases) {
      const label = `${c.method} ${c.url.slice(0, 80)}`;
      const body = c.method === "POST" && c.url.startsWith("/api/share/") ? "{}" : undefined;
      const res = await f.request(c.url, { method: c.method, as: "u", headers: c.headers, body });
      const text = await res.text();
      assert.equal(res.status, c.status, `${label}: ${text}`);
      if (c.message && c.method !== "HEAD") assert.match(text, c.message, label);
    }
    assert.deepEqual(log.errors(), []);
    assert.deepEqual((await Array.fromAsync(Deno.readDir(f.home))).map((e) => e.name).sort(), [
      ".env",
      "a",
      "a.txt",
      "ab",
      "back\\slash.txt",
      "dangling",
      "docs",
      "escape.txt",
      "evil-link",
      "good-link.md",
      "rule-hidden.txt",
    ]);
  } finally {
    log.stop();
    await f.close();
  }
});

Deno.test("a path that only the server root makes too long answers 414, not 500", async () => {
  const f = await filesFixture();
  const log = captureLog();
  try {
    // 4080 bytes of vpath fit the limit, but not once joined to the server root.
    const path = ("d".repeat(199) + "/").repeat(20) + "x".repeat(79);
    for (const method of ["GET", "POST"]) {
      const res = await f.request(`/api/resources/${path}`, { method, as: "u" });
      assert.equal(res.status, 414, `${method}: ${await res.text()}`);
    }
    assert.deepEqual(log.errors(), []);
  } finally {
    log.stop();
    await f.close();
  }
});

Deno.test("a 2 KB share hash answers 404 to visitors and on DELETE, without touching KV's key limit", async () => {
  const t = await testApp({ users: [{ username: "owner", perm: { share: true, download: true } }] });
  const log = captureLog();
  try {
    const hash = "h".repeat(2048);
    for (
      const url of [`/api/public/share/${hash}`, `/api/public/dl/${hash}`, `/api/public/share/${hash}/x`]
    ) {
      const res = await t.request(url);
      assert.equal(res.status, 404, url.slice(0, 40));
      assert.equal(await res.text(), "404 Not Found\n");
    }
    const del = await t.request(`/api/share/${hash}`, { method: "DELETE", as: "owner" });
    assert.equal(del.status, 404);
    await del.body?.cancel();
    const page = await t.request(`/share/${hash}`);
    assert.ok(page.status < 500, `page: ${page.status}`);
    await page.body?.cancel();
    assert.deepEqual(log.errors(), []);
  } finally {
    log.stop();
    await t.close();
  }
});

Deno.test("user records and settings over 64 KiB answer 400 naming the limit, and nothing is written", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  const log = captureLog();
  try {
    const id = t.users.alice.id;
    const huge = Array.from({ length: 800 }, (_, i) => `command-${i}-${"x".repeat(90)}`);
    const put = await t.request(`/api/users/${id}`, {
      as: "admin",
      method: "PUT",
      body: JSON.stringify({
        what: "user",
        which: ["commands"],
        data: { id, commands: huge },
        current_password: TEST_PASSWORD,
      }),
    });
    assert.equal(put.status, 400);
    assert.match(await put.text(), /64 KiB/);
    assert.deepEqual((await users.getUser(t.deps.kv, id)).commands, []);
    const create = await t.request("/api/users", {
      as: "admin",
      method: "POST",
      body: JSON.stringify({
        what: "user",
        which: [],
        data: { username: "bob", password: "a-long-enough-password", scope: "/bob", commands: huge },
        current_password: TEST_PASSWORD,
      }),
    });
    assert.equal(create.status, 400, await create.clone().text());
    assert.match(await create.text(), /64 KiB/);
    assert.equal(await users.findUserByName(t.deps.kv, "bob"), null);
    const before = await (await t.request("/api/settings", { as: "admin" })).text();
    const settings = await t.request("/api/settings", {
      as: "admin",
      method: "PUT",
      body: JSON.stringify({ customCss: "/* " + "x".repeat(70_000) + " */" }),
    });
    assert.equal(settings.status, 400);
    assert.match(await settings.text(), /64 KiB/);
    assert.equal(await (await t.request("/api/settings", { as: "admin" })).text(), before);
    assert.deepEqual(log.errors(), []);
  } finally {
    log.stop();
    await t.close();
  }
});

Deno.test("a 3 KB username fails to log in (403, or 400) and to be created (400), never a KV key error", async () => {
  const t = await testApp();
  const log = captureLog();
  try {
    const username = "u".repeat(3000);
    const login = await t.request("/api/login", {
      method: "POST",
      body: JSON.stringify({ username, password: "whatever-password" }),
    });
    assert.ok([400, 403].includes(login.status), `login: ${login.status}`);
    await login.body?.cancel();
    const create = await t.request("/api/users", {
      as: "admin",
      method: "POST",
      body: JSON.stringify({
        what: "user",
        which: [],
        data: { username, password: "a-long-enough-password" },
      }),
    });
    assert.equal(create.status, 400, await create.clone().text());
    await create.body?.cancel();
    assert.deepEqual(log.errors(), []);
  } finally {
    log.stop();
    await t.close();
  }
});

Deno.test("names with CR/LF or U+2028 never break a response header (download, preview, tus Location, redirects)", async () => {
  const f = await filesFixture();
  const log = captureLog();
  try {
    for (const name of ["cr\r\nlf.txt", "ls\u2028ps\u2029.txt", "tab\tname.srt", "latin\u00e9\u0085.txt"]) {
      await Deno.writeTextFile(`${f.home}/${name}`, "1\n00:00:00,000 --> 00:00:01,000\nhi\n");
    }
    const enc = (s: string) => encodeURIComponent(s);
    const cases: [string, string, number][] = [
      ["GET", `/api/raw/${enc("cr\r\nlf.txt")}`, 200],
      ["GET", `/api/raw/${enc("cr\r\nlf.txt")}?inline=true`, 200],
      ["GET", `/api/raw/${enc("ls\u2028ps\u2029.txt")}`, 200],
      ["GET", `/api/raw/${enc("latin\u00e9\u0085.txt")}`, 200],
      ["GET", `/api/raw/?files=${enc("/cr\r\nlf.txt")},${enc("/ls\u2028ps\u2029.txt")}&algo=zip`, 200],
      ["GET", `/api/subtitle/${enc("tab\tname.srt")}`, 200],
      // Not an image: the API answers 501, a deliberate answer (no ERROR line).
      ["GET", `/api/preview/thumb/${enc("cr\r\nlf.txt")}`, 501],
      ["GET", `/api/resources//${enc("cr\r\nlf.txt")}`, 301],
      ["GET", `/files//${enc("cr\r\nlf.txt")}`, 301],
      ["GET", `/nowhere/${enc("cr\r\nlf.txt")}`, 302],
    ];
    for (const [method, url, want] of cases) {
      const res = await f.request(url, { method, as: "u" });
      await res.body?.cancel();
      assert.equal(res.status, want, url);
      for (const [k, v] of res.headers) assert.ok(!/[\r\n\0]/.test(v), `${url}: header ${k}`);
    }
    const tus = await f.request(`/api/tus/${enc("up\u2028load.txt")}`, {
      method: "POST",
      as: "u",
      headers: { "Upload-Length": "1" },
    });
    assert.equal(tus.status, 201);
    assert.equal(tus.headers.get("Location"), "/api/tus/up%E2%80%A8load.txt");
    const pw = await f.request(`/api/public/share/nothere1`, {
      headers: { "X-SHARE-PASSWORD": "%0D%0Aevil" },
    });
    assert.equal(pw.status, 404);
    await pw.body?.cancel();
    assert.deepEqual(log.errors(), []);
  } finally {
    log.stop();
    await f.close();
  }
});

Deno.test("a path below a file answers 404 (read, delete) or 409 (create), not ENOTDIR's 500", async () => {
  const f = await filesFixture();
  const log = captureLog();
  try {
    const cases: [string, string, number][] = [
      ["GET", "/api/resources/a.txt/x", 404],
      ["GET", "/api/resources/good-link.md/x", 404],
      ["GET", "/api/raw/a.txt/x/y", 404],
      ["GET", "/api/usage/a.txt/x", 404],
      ["PUT", "/api/resources/a.txt/x", 404],
      ["DELETE", "/api/resources/a.txt/x", 404],
      ["DELETE", "/api/tus/a.txt/x", 404],
      ["HEAD", "/api/tus/a.txt/x", 404],
      ["POST", "/api/resources/a.txt/x", 409],
      ["POST", "/api/resources/a.txt/x/", 409],
      ["POST", "/api/resources/a.txt/x/y", 409],
      ["PATCH", `/api/resources/docs?action=copy&destination=${dest("/a.txt/x")}`, 409],
      ["PATCH", `/api/resources/docs?action=rename&destination=${dest("/a.txt/x")}`, 409],
    ];
    for (const [method, url, status] of cases) {
      const res = await f.request(url, {
        method,
        as: "u",
        body: method === "POST" || method === "PUT" ? "x" : undefined,
      });
      await res.body?.cancel();
      assert.equal(res.status, status, `${method} ${url}`);
    }
    assert.equal(await Deno.readTextFile(`${f.home}/a.txt`), "A");
    assert.deepEqual(log.errors(), []);
  } finally {
    log.stop();
    await f.close();
  }
});

Deno.test("a folder deleted while other requests write into it answers 204, 404 or 409, never 500", async () => {
  const f = await filesFixture();
  const log = captureLog();
  try {
    const seen = new Map<string, number>();
    const count = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1);
    for (let round = 0; round < 15; round++) {
      await Promise.all([
        (async () => {
          for (let i = 0; i < 6; i++) {
            const r = await f.request(`/api/resources/busy/d${i}/f${i}.txt`, {
              method: "POST",
              as: "u",
              body: "x",
            });
            await r.body?.cancel();
            count(`POST ${r.status}`);
          }
        })(),
        ...[0, 1].map(async () => {
          for (let i = 0; i < 3; i++) {
            const r = await f.request("/api/resources/busy", { method: "DELETE", as: "u" });
            await r.body?.cancel();
            count(`DELETE ${r.status}`);
          }
        }),
      ]);
    }
    for (const key of seen.keys()) assert.match(key, /^(POST (200|404|409)|DELETE (204|404|409))$/, key);
    assert.ok(seen.has("DELETE 204") && seen.has("POST 200"), JSON.stringify([...seen]));
    assert.deepEqual(log.errors(), []);
  } finally {
    log.stop();
    await f.close();
  }
});

Deno.test("copying or moving a folder where its deepest entry would pass PATH_MAX answers 400, before writing", async () => {
  const f = await filesFixture();
  const log = captureLog();
  try {
    const deep = ["s1", "s2", "s3"].map((s) => s + "x".repeat(200)).join("/");
    await Deno.mkdir(`${f.home}/tree/${deep}`, { recursive: true });
    await Deno.writeTextFile(`${f.home}/tree/${deep}/leaf.txt`, "L");
    // Long enough to fit by itself, too long once the tree's 600-byte depth is added.
    const target = "/" + Array.from({ length: 17 }, (_, i) => `t${i}` + "y".repeat(200)).join("/");
    for (const action of ["copy", "rename"]) {
      const r = await f.request(`/api/resources/tree?action=${action}&destination=${dest(target)}`, {
        method: "PATCH",
        as: "u",
      });
      const text = await r.text();
      assert.equal(r.status, 400, `${action}: ${text}`);
      assert.match(text, /would exceed 4096 bytes/);
    }
    assert.equal(await exists(`${f.home}/t0${"y".repeat(200)}`), false);
    assert.equal(await Deno.readTextFile(`${f.home}/tree/${deep}/leaf.txt`), "L");
    const ok = await f.request(`/api/resources/tree?action=copy&destination=${dest("/tree2")}`, {
      method: "PATCH",
      as: "u",
    });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    assert.deepEqual(log.errors(), []);
  } finally {
    log.stop();
    await f.close();
  }
});
