/** /api/tus through the real app (in-process): wire format, permissions, role matrix and the traversal set. */
import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import type { TestApp } from "../_helpers.ts";

const TUS_CT = "application/offset+octet-stream";

function post(t: TestApp, path: string, init: { as?: string; length?: string | null; query?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.length !== null) headers["Upload-Length"] = init.length ?? "5";
  return t.request(`/api/tus${path}${init.query ?? "?override=false"}`, {
    method: "POST",
    as: init.as,
    headers,
  });
}

function patch(
  t: TestApp,
  path: string,
  init: { as?: string; offset: number; body: string | Uint8Array<ArrayBuffer>; ct?: string },
) {
  return t.request(`/api/tus${path}`, {
    method: "PATCH",
    as: init.as,
    headers: { "Upload-Offset": String(init.offset), "Content-Type": init.ct ?? TUS_CT },
    body: init.body,
  });
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

async function withApp(fn: (t: TestApp) => Promise<void>, options: Parameters<typeof testApp>[0] = {}) {
  const t = await testApp({
    users: [
      { username: "user", perm: { create: true, modify: true, delete: true } },
      { username: "nocreate", perm: { modify: true, delete: true, download: true } },
      { username: "nodelete", perm: { create: true, modify: true } },
      { username: "nomodify", perm: { create: true, delete: true } },
    ],
    ...options,
  });
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

Deno.test("tus POST answers 201 with a path-only Location, then HEAD/GET report offset and length", async () => {
  await withApp(async (t) => {
    const res = await post(t, "/dir/a%20b.txt", { as: "user", length: "11" });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get("Content-Type"), "text/plain; charset=UTF-8");
    assert.equal(await res.text(), "201 Created\n");
    assert.equal(res.headers.get("Location"), "/api/tus/dir/a%20b.txt");
    const p = await patch(t, "/dir/a%20b.txt", { as: "user", offset: 0, body: "hello" });
    assert.equal(p.status, 204);
    assert.equal(p.headers.get("Upload-Offset"), "5");
    const head = await t.request("/api/tus/dir/a%20b.txt", { method: "HEAD", as: "user" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("Upload-Offset"), "5");
    assert.equal(head.headers.get("Upload-Length"), "11");
    assert.equal(head.headers.get("Cache-Control"), "no-store");
    const get = await t.request("/api/tus/dir/a%20b.txt", { as: "user" });
    assert.equal(get.status, 200);
    assert.equal(get.headers.get("Upload-Offset"), "5");
    assert.equal(await get.text(), "200 OK\n");
    const last = await patch(t, "/dir/a%20b.txt", { as: "user", offset: 5, body: " world" });
    assert.equal(last.status, 204);
    assert.equal(last.headers.get("Upload-Offset"), "11");
    assert.equal(await Deno.readTextFile(`${t.root}/dir/a b.txt`), "hello world");
    assert.equal((await t.request("/api/tus/dir/a%20b.txt", { method: "HEAD", as: "user" })).status, 404);
  });
});

Deno.test("tus Location carries the base URL", async () => {
  await withApp(async (t) => {
    const res = await t.request("/fb/api/tus/x.bin?override=false", {
      method: "POST",
      as: "user",
      headers: { "Upload-Length": "1" },
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get("Location"), "/fb/api/tus/x.bin");
  }, { config: { baseUrl: "/fb" } });
});

Deno.test("tus POST refuses missing, negative and malformed lengths with 400 and creates nothing", async () => {
  await withApp(async (t) => {
    for (const length of [null, "-1", "", "abc", "1.5"]) {
      const res = await post(t, "/bad.bin", { as: "user", length });
      assert.equal(res.status, 400, `length ${length}`);
      assert.match(await res.text(), /^400 Bad Request \(invalid upload length/);
    }
    assert.equal(await exists(`${t.root}/bad.bin`), false);
    // The upload folder exists from the start (created at boot), and stays empty.
    assert.deepEqual(await Array.fromAsync(Deno.readDir(`${t.dir}/uploads`)), [], "no staging file either");
  });
});

Deno.test("tus role matrix: anonymous 401, no create 403, user and admin 201", async () => {
  await withApp(async (t) => {
    const anon = await post(t, "/r.bin");
    assert.equal(anon.status, 401);
    assert.equal((await t.request("/api/tus/r.bin", { method: "HEAD" })).status, 401);
    assert.equal((await patch(t, "/r.bin", { offset: 0, body: "x" })).status, 401);
    assert.equal((await t.request("/api/tus/r.bin", { method: "DELETE" })).status, 401);
    const nocreate = await post(t, "/r.bin", { as: "nocreate" });
    assert.equal(nocreate.status, 403);
    assert.equal(await nocreate.text(), "403 Forbidden\n");
    assert.equal((await post(t, "/r.bin", { as: "user" })).status, 201);
    assert.equal((await t.request("/api/tus/r.bin", { method: "HEAD", as: "nocreate" })).status, 403);
    assert.equal((await patch(t, "/r.bin", { as: "nocreate", offset: 0, body: "x" })).status, 403);
    assert.equal((await post(t, "/s.bin", { as: "admin" })).status, 201);
    assert.equal((await patch(t, "/s.bin", { as: "admin", offset: 0, body: "admin" })).status, 204);
    assert.equal(await Deno.readTextFile(`${t.root}/s.bin`), "admin");
  });
});

Deno.test("tus DELETE needs the delete permission, refuses the root and keeps existing files", async () => {
  await withApp(async (t) => {
    assert.equal((await post(t, "/d.bin", { as: "nodelete", length: "4" })).status, 201);
    assert.equal((await patch(t, "/d.bin", { as: "nodelete", offset: 0, body: "ab" })).status, 204);
    const refused = await t.request("/api/tus/d.bin", { method: "DELETE", as: "nodelete" });
    assert.equal(refused.status, 403);
    assert.equal(
      (await t.request("/api/tus/d.bin", { method: "HEAD", as: "nodelete" })).headers.get("Upload-Offset"),
      "2",
    );
    assert.equal((await t.request("/api/tus/", { method: "DELETE", as: "user" })).status, 403);

    await Deno.writeTextFile(`${t.root}/keep.txt`, "original");
    assert.equal(
      (await post(t, "/keep.txt", { as: "user", length: "3", query: "?override=true" })).status,
      201,
    );
    assert.equal((await patch(t, "/keep.txt", { as: "user", offset: 0, body: "ne" })).status, 204);
    const del = await t.request("/api/tus/keep.txt", { method: "DELETE", as: "user" });
    assert.equal(del.status, 204);
    assert.equal(await del.text(), "");
    assert.equal(await Deno.readTextFile(`${t.root}/keep.txt`), "original");
    assert.equal((await t.request("/api/tus/keep.txt", { method: "DELETE", as: "user" })).status, 404);
  });
});

Deno.test("tus on an existing file: 409 without override, 403 without modify, untouched when the upload fails", async () => {
  await withApp(async (t) => {
    await Deno.writeTextFile(`${t.root}/exists.txt`, "original");
    const conflict = await post(t, "/exists.txt", { as: "user" });
    assert.equal(conflict.status, 409);
    assert.equal(await conflict.text(), "409 Conflict\n");
    assert.equal((await post(t, "/exists.txt", { as: "nomodify", query: "?override=true" })).status, 403);
    assert.equal(
      (await post(t, "/exists.txt", { as: "user", length: "5", query: "?override=true" })).status,
      201,
    );
    const tooLong = await patch(t, "/exists.txt", { as: "user", offset: 0, body: "far too long" });
    assert.equal(tooLong.status, 413);
    assert.equal(
      (await patch(t, "/exists.txt", { as: "user", offset: 0, body: "ab", ct: "text/plain" })).status,
      415,
    );
    assert.equal((await patch(t, "/exists.txt", { as: "user", offset: 3, body: "ab" })).status, 409);
    assert.equal(await Deno.readTextFile(`${t.root}/exists.txt`), "original");
    assert.equal((await patch(t, "/exists.txt", { as: "user", offset: 0, body: "fresh" })).status, 204);
    assert.equal(await Deno.readTextFile(`${t.root}/exists.txt`), "fresh");
  });
});

Deno.test("tus POST to a directory is a 400 that does not leak the on-disk path", async () => {
  await withApp(async (t) => {
    await Deno.mkdir(`${t.root}/folder`);
    const res = await post(t, "/folder", { as: "user", query: "?override=true" });
    assert.equal(res.status, 400);
    const text = await res.text();
    assert.match(text, /cannot upload to a directory/);
    assert.ok(!text.includes(t.root), text);
  });
});

Deno.test("tus traversal set: .., %2e%2e, backslash and absolute paths stay in scope", async () => {
  await withApp(async (t) => {
    for (
      const path of ["/../escape1.txt", "/%2e%2e/escape2.txt", "/sub/..%2F..%2Fescape3.txt", "/%2Fabs.txt"]
    ) {
      const res = await post(t, path, { as: "jail", length: "2" });
      if (res.status === 201) {
        const loc = res.headers.get("Location")!;
        assert.ok(loc.startsWith("/api/tus/"), loc);
        const put = await t.request(loc, {
          method: "PATCH",
          headers: { "X-Auth": t.tokens.jail, "Upload-Offset": "0", "Content-Type": TUS_CT },
          body: "in",
        });
        assert.equal(put.status, 204, path);
      } else {
        assert.ok([301, 400, 403, 404].includes(res.status), `${path}: ${res.status}`);
      }
    }
    for (const name of ["escape1.txt", "escape2.txt", "escape3.txt", "abs.txt"]) {
      assert.equal(await exists(`${t.root}/${name}`), false, `${name} escaped the scope`);
    }
    assert.equal(
      await Deno.readTextFile(`${t.root}/jail/escape3.txt`),
      "in",
      "encoded ../ is cleaned inside the scope",
    );
    assert.equal(
      await Deno.readTextFile(`${t.root}/jail/abs.txt`),
      "in",
      "an absolute path is scope-relative",
    );
    const back = await post(t, "/a%5C..%5Cb.txt", { as: "jail", length: "1" });
    assert.equal(back.status, 400, "a backslash is refused in new names (a separator on the user's machine)");
    assert.equal(await Deno.stat(`${t.root}/jail/a\\..\\b.txt`).catch(() => null), null);
  }, { users: [{ username: "jail", perm: { create: true }, scope: "/jail" }] });
});

Deno.test("tus refuses writes through an escaping symlink and to rule-hidden paths", async () => {
  const outside = await Deno.makeTempDir({ prefix: "fboutside-" });
  try {
    await withApp(async (t) => {
      await Deno.symlink(outside, `${t.root}/escape_link`);
      const created = await post(t, "/escape_link/injected.txt", { as: "user", length: "20" });
      assert.equal(created.status, 403);
      const patched = await patch(t, "/escape_link/injected.txt", {
        as: "user",
        offset: 0,
        body: "x".repeat(20),
      });
      assert.equal(patched.status, 403);
      assert.equal(await exists(`${outside}/injected.txt`), false);
      assert.equal((await post(t, "/private/x.txt", { as: "ruled" })).status, 403);
      assert.equal((await post(t, "/.hidden", { as: "ruled" })).status, 403);
      assert.equal((await post(t, "/public.txt", { as: "ruled" })).status, 201);
    }, {
      users: [
        { username: "user", perm: { create: true } },
        {
          username: "ruled",
          perm: { create: true },
          hideDotfiles: true,
          rules: [{ regex: false, allow: false, path: "/private", regexp: null }],
        },
      ],
    });
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("tus respects global rules from the settings", async () => {
  await withApp(async (t) => {
    assert.equal((await post(t, "/logs/today.txt", { as: "user" })).status, 403);
    assert.equal((await post(t, "/notlogs.txt", { as: "user" })).status, 201);
  }, { settings: { rules: [{ regex: true, allow: false, path: "", regexp: { raw: "^/logs" } }] } });
});
