import assert from "node:assert/strict";
import { users } from "../lib/storage/mod.ts";
import { middlewareApp, TEST_PASSWORD, testApp } from "../tests/_helpers.ts";
import { webdavAuth } from "./webdav_auth.ts";

const basic = (user: string, password: string) => ({ Authorization: `Basic ${btoa(`${user}:${password}`)}` });

Deno.test("webdavAuth() takes Basic credentials, challenges without them and builds the request context", async () => {
  const t = await testApp({ users: [{ username: "alice", scope: "/alice" }, { username: "bob" }] });
  try {
    await users.mutateUser(t.deps.kv, t.users.bob.id, (u) => ({ ...u, webdav: false }));
    const app = middlewareApp(t.deps, webdavAuth());
    app.all("/dav/*", (c) => c.text(`${c.var.user.username} ${c.var.ctx.gate.user.scope}`));
    const none = await app.request("http://x/dav/");
    assert.equal(none.status, 401);
    assert.match(none.headers.get("WWW-Authenticate") ?? "", /^Basic realm=/);
    await none.body?.cancel();
    const wrong = await app.request("http://x/dav/", { headers: basic("alice", "wrong") });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    const off = await app.request("http://x/dav/", { headers: basic("bob", TEST_PASSWORD) });
    assert.equal(off.status, 403);
    await off.body?.cancel();
    const ok = await app.request("http://x/dav/", {
      method: "PROPFIND",
      headers: basic("alice", TEST_PASSWORD),
    });
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), "alice /alice");
  } finally {
    await t.close();
  }
});
