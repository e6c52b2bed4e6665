/** HTTP tests of the share API (docs/api.md#shares): permissions, validation, custom links, secrets, share pages. */
import assert from "node:assert/strict";
import { parse } from "../../framework/serialize.ts";
import { testApp } from "../_helpers.ts";
import { shares } from "../../lib/storage/mod.ts";
import { link, put, SHARER, status } from "./_shares.ts";

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
