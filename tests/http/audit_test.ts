/** HTTP tests of the audit log: which requests are recorded, with which client, user, paths and results. */
import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import { captureLog } from "./_log.ts";
import { serveDav } from "./_dav.ts";
import { entries, find, login } from "./_audit.ts";

Deno.test("audit: logins, ok and failed, with the username tried and the client; never the password", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  const logs = captureLog();
  try {
    assert.equal((await t.request("/api/login", login("alice", TEST_PASSWORD))).status, 200);
    assert.equal((await t.request("/api/login", login("alice", "wrong-secret-1"))).status, 403);
    assert.equal((await t.request("/api/login", login("nobody", "wrong-secret-2"))).status, 403);
    assert.equal((await t.request("/api/login", { method: "POST", body: "{not json" })).status, 403);
    const list = await entries(t, "?action=login");
    assert.equal(list.length, 4);
    // Newest first.
    assert.deepEqual(list.map((e) => [e.user, e.ok, e.status]), [
      ["", false, 403],
      ["nobody", false, 403],
      ["alice", false, 403],
      ["alice", true, 200],
    ]);
    assert.equal(list[2].detail, "wrong_credentials");
    assert.equal(list[0].detail, "bad_login_body");
    const all = JSON.stringify(await entries(t)) + logs.lines.map((l) => l.line).join("\n");
    assert.ok(!all.includes("wrong-secret") && !all.includes(TEST_PASSWORD), "a password was recorded");
    // One JSON line per event at info level.
    const json = logs.lines.filter((l) => l.level === "info" && l.line.includes('"event":"audit"'));
    assert.equal(json.length, 4);
    const parsed = JSON.parse(json[0].line.slice(json[0].line.indexOf("{")));
    assert.equal(parsed.action, "login");
    assert.equal(parsed.user, "alice");
    assert.deepEqual(logs.errors(), []);
  } finally {
    logs.stop();
    await t.close();
  }
});

Deno.test("audit: over TCP the client is the peer, or the address a trusted proxy names; WebDAV changes", async () => {
  const basic = "Basic " + btoa(`alice:${TEST_PASSWORD}`);
  for (const trusted of [false, true]) {
    const dav = await serveDav({
      users: [{ username: "alice", perm: "all" }],
      config: { trustedProxies: trusted ? ["127.0.0.1", "::1"] : [] },
    });
    const logs = captureLog();
    try {
      const res = await fetch(`${dav.origin}/api/login`, login("alice", "nope-nope-nope"));
      assert.equal(res.status, 403);
      await res.body?.cancel();
      const [e] = await entries(dav.t, "?action=login");
      assert.equal(e.client, trusted ? "203.0.113.9" : "127.0.0.1");
      if (trusted) continue;
      const put = await fetch(`${dav.davUrl}w.txt`, {
        method: "PUT",
        body: "x",
        headers: { Authorization: basic },
      });
      assert.equal(put.status, 201);
      await put.body?.cancel();
      const move = await fetch(`${dav.davUrl}w.txt`, {
        method: "MOVE",
        headers: { Authorization: basic, Destination: `${dav.davUrl}sub%20dir.txt` },
      });
      assert.ok(move.ok, String(move.status));
      await move.body?.cancel();
      const list = await entries(dav.t, "?action=file");
      assert.deepEqual(list.map((x) => [x.action, x.user, x.path, x.target, x.detail]), [
        ["file.move", "alice", "/w.txt", "/sub dir.txt", "webdav"],
        ["file.save", "alice", "/w.txt", "", "webdav"],
      ]);
    } finally {
      logs.stop();
      await dav.close();
    }
  }
});

Deno.test("audit: parallel requests over real connections are each recorded once", async () => {
  const srv = await serveDav({ users: [{ username: "alice", perm: "all" }] });
  try {
    const n = 24;
    const statuses = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const res = await fetch(`${srv.origin}/api/resources/p${i}.txt`, {
          method: "POST",
          body: `${i}`,
          headers: { "X-Auth": srv.t.tokens.alice },
        });
        await res.body?.cancel();
        return res.status;
      }),
    );
    assert.deepEqual(statuses, Array(n).fill(200));
    const list = await entries(srv.t, "?action=file.upload&limit=1000");
    assert.equal(list.length, n);
    assert.deepEqual(
      new Set(list.map((e) => e.path)),
      new Set(Array.from({ length: n }, (_, i) => `/p${i}.txt`)),
    );
    assert.equal(new Set(list.map((e) => `${e.time}.${e.id}`)).size, n);
  } finally {
    await srv.close();
  }
});

Deno.test("audit: parallel downloads over real connections are each recorded once", async () => {
  const srv = await serveDav({ users: [{ username: "alice", perm: "all" }] });
  try {
    await Deno.writeTextFile(`${srv.t.root}/d.txt`, "data");
    const n = 48;
    const statuses = await Promise.all(
      Array.from({ length: n }, async () => {
        const res = await fetch(`${srv.origin}/api/raw/d.txt`, { headers: { "X-Auth": srv.t.tokens.alice } });
        assert.equal(await res.text(), "data");
        return res.status;
      }),
    );
    assert.deepEqual(statuses, Array(n).fill(200));
    const list = await entries(srv.t, "?action=file.download&limit=1000");
    assert.equal(list.length, n);
    assert.equal(new Set(list.map((e) => `${e.time}.${e.id}`)).size, n);
    assert.ok(list.every((e) => e.path === "/d.txt" && e.user === "alice" && e.status === 200));
  } finally {
    await srv.close();
  }
});

Deno.test("audit: user changes name the fields, never their values; logout is recorded", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  const logs = captureLog();
  try {
    const id = t.users.alice.id;
    assert.equal((await t.request("/api/logout", { as: "alice", method: "POST" })).status, 200);
    const res = await t.request(`/api/users/${id}`, {
      as: "admin",
      method: "PUT",
      body: JSON.stringify({
        what: "user",
        which: ["perm", "password"],
        current_password: TEST_PASSWORD,
        data: { id, password: "new-password-xyz", perm: { ...t.users.alice.perm, download: true } },
      }),
    });
    assert.equal(res.status, 200, await res.text());
    const created = await t.request("/api/users", {
      as: "admin",
      method: "POST",
      body: JSON.stringify({
        what: "user",
        which: [],
        current_password: TEST_PASSWORD,
        data: { username: "bob", password: "bob-password-123", perm: {} },
      }),
    });
    assert.equal(created.status, 201, await created.text());
    const bobId = Number(created.headers.get("Location")!.split("/").pop());
    const del = await t.request(`/api/users/${bobId}`, {
      as: "admin",
      method: "DELETE",
      body: JSON.stringify({ current_password: TEST_PASSWORD }),
    });
    assert.equal(del.status, 200);
    const list = await entries(t);
    const upd = find(list, "user.update");
    assert.equal(upd.user, "admin");
    assert.equal(upd.target, `user:${id}`);
    assert.equal(upd.detail, "perm password");
    assert.equal(find(list, "user.create").target, `user:${bobId}`);
    assert.equal(find(list, "user.delete").target, `user:${bobId}`);
    assert.equal(find(list, "logout").user, "alice");
    const text = JSON.stringify(list) + logs.lines.map((l) => l.line).join("\n");
    assert.ok(!text.includes("new-password-xyz") && !text.includes("bob-password-123"));
  } finally {
    logs.stop();
    await t.close();
  }
});

Deno.test("audit: share create, use (also a failed one) and delete", async () => {
  const t = await testApp({ users: [{ username: "alice", perm: { share: true, download: true } }] });
  try {
    await Deno.writeTextFile(`${t.root}/doc.txt`, "hello");
    const res = await t.request("/api/share/doc.txt", { as: "alice", method: "POST", body: "{}" });
    assert.equal(res.status, 200);
    const { hash } = await res.json();
    assert.equal((await t.request(`/api/public/share/${hash}`)).status, 200);
    assert.equal((await t.request(`/api/public/dl/${hash}`)).status, 200);
    assert.equal((await t.request("/api/public/share/missing1")).status, 404);
    assert.equal((await t.request(`/api/share/${hash}`, { as: "alice", method: "DELETE" })).status, 200);
    const list = await entries(t, "?action=share");
    assert.equal(find(list, "share.create").target, hash);
    assert.equal(find(list, "share.create").path, "/doc.txt");
    const uses = list.filter((e) => e.action === "share.use");
    assert.deepEqual(uses.map((e) => [e.target, e.ok, e.user, e.detail]), [
      ["missing1", false, "", ""],
      [hash, true, "", "download"],
      [hash, true, "", ""],
    ]);
    assert.equal(find(list, "share.delete").target, hash);
  } finally {
    await t.close();
  }
});

Deno.test("audit: file operations with their paths and results; reads are not recorded", async () => {
  const t = await testApp({ users: [{ username: "alice", perm: "all" }, { username: "eve" }] });
  try {
    const ok = async (path: string, init: RequestInit & { as?: string }, status = 200) => {
      const res = await t.request(path, init);
      assert.equal(res.status, status, `${init.method} ${path}: ${await res.text()}`);
    };
    await ok("/api/resources/dir/", { as: "alice", method: "POST" });
    await ok("/api/resources/new.txt", { as: "alice", method: "POST", headers: { "Content-Length": "0" } });
    await ok("/api/resources/dir/a.txt", { as: "alice", method: "POST", body: "abc" });
    await ok("/api/resources/dir/a.txt", { as: "alice", method: "PUT", body: "abcd" });
    await ok("/api/resources/dir/a.txt?action=rename&destination=%2Fdir%2Fb.txt", {
      as: "alice",
      method: "PATCH",
    });
    await ok("/api/resources/dir/b.txt?action=copy&destination=%2Fc.txt", { as: "alice", method: "PATCH" });
    await ok("/api/resources/dir/b.txt?action=rename&destination=%2Fd.txt", { as: "alice", method: "PATCH" });
    await ok("/api/resources/dir/", { as: "alice", method: "GET" });
    await ok("/api/raw/dir?algo=zip", { as: "alice", method: "GET" });
    await ok("/api/resources/c.txt", { as: "alice", method: "DELETE" }, 204);
    // A refused one: eve may not delete.
    await ok("/api/resources/d.txt", { as: "eve", method: "DELETE" }, 403);
    const [item] = await (await t.request("/api/trash", { as: "alice" })).json();
    await ok(`/api/trash/${item.id}`, { as: "alice", method: "POST" });
    await ok("/api/resources/new.txt?permanent=true", { as: "alice", method: "DELETE" }, 204);
    const list = await entries(t, "?action=file");
    assert.deepEqual(list.map((e) => [e.action, e.user, e.path, e.target, e.ok]).reverse(), [
      ["file.mkdir", "alice", "/dir/", "", true],
      ["file.create", "alice", "/new.txt", "", true],
      ["file.upload", "alice", "/dir/a.txt", "", true],
      ["file.save", "alice", "/dir/a.txt", "", true],
      ["file.rename", "alice", "/dir/a.txt", "/dir/b.txt", true],
      ["file.copy", "alice", "/dir/b.txt", "/c.txt", true],
      ["file.move", "alice", "/dir/b.txt", "/d.txt", true],
      ["file.download", "alice", "/dir", "", true],
      ["file.delete", "alice", "/c.txt", "", true],
      ["file.delete", "eve", "/d.txt", "", false],
      ["file.delete", "alice", "/new.txt", "", true],
    ]);
    const restored = find(await entries(t, "?action=trash"), "trash.restore");
    assert.deepEqual([restored.path, restored.target, restored.user], ["/c.txt", item.id, "alice"]);
    assert.equal(find(list, "file.delete", (e) => e.path === "/new.txt").detail, "permanent");
    assert.equal(find(list, "file.download").detail, "archive zip");
    assert.equal(find(list, "file.delete", (e) => !e.ok).status, 403);
  } finally {
    await t.close();
  }
});

Deno.test("audit: a tus upload is recorded when it starts and when its last chunk lands, not per chunk", async () => {
  const t = await testApp({ users: [{ username: "alice", perm: "all" }] });
  try {
    const chunk = (offset: number, body: string) =>
      t.request("/api/tus/big.bin", {
        as: "alice",
        method: "PATCH",
        headers: { "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
        body,
      });
    const created = await t.request("/api/tus/big.bin?override=false", {
      as: "alice",
      method: "POST",
      headers: { "Upload-Length": "5" },
    });
    assert.equal(created.status, 201);
    assert.equal((await chunk(0, "ab")).status, 204);
    assert.equal((await chunk(2, "cde")).status, 204);
    assert.equal(await Deno.readTextFile(`${t.root}/big.bin`), "abcde");
    const empty = await t.request("/api/tus/empty.bin?override=false", {
      as: "alice",
      method: "POST",
      headers: { "Upload-Length": "0" },
    });
    assert.equal(empty.status, 201);
    const list = await entries(t, "?action=file");
    assert.deepEqual(list.map((e) => [e.action, e.path, e.detail]), [
      ["file.upload", "/empty.bin", "tus"],
      ["file.upload", "/big.bin", "tus"],
      ["file.upload_start", "/big.bin", "tus"],
    ]);
  } finally {
    await t.close();
  }
});
