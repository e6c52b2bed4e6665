import assert from "node:assert/strict";
import { scopeBytes } from "../lib/quota.ts";
import { middlewareApp, testApp } from "../tests/_helpers.ts";
import { requireUser } from "./require_user.ts";
import { usageInvalidation } from "./usage_invalidation.ts";

Deno.test("usageInvalidation() drops the cached usage after a user's write, even a failed one, not after reads", async () => {
  const t = await testApp({ users: [{ username: "alice", scope: "/alice" }] });
  try {
    const app = middlewareApp(t.deps, usageInvalidation(), requireUser());
    app.get("/*", (c) => c.text("read"));
    app.put("/*", (c) => c.text("refused", 409));
    const alice = t.users.alice;
    await Deno.writeTextFile(`${t.root}/alice/a`, "12345");
    assert.equal(await scopeBytes(t.deps, alice), 5);
    await Deno.writeTextFile(`${t.root}/alice/b`, "123");
    const read = await app.request("http://x/f", { headers: { "X-Auth": t.tokens.alice } });
    await read.body?.cancel();
    assert.equal(await scopeBytes(t.deps, alice), 5, "a read keeps the cached count");
    const anonymous = await app.request("http://x/f", { method: "PUT" });
    await anonymous.body?.cancel();
    assert.equal(anonymous.status, 401);
    assert.equal(await scopeBytes(t.deps, alice), 5, "no user, nothing written");
    const write = await app.request("http://x/f", { method: "PUT", headers: { "X-Auth": t.tokens.alice } });
    await write.body?.cancel();
    assert.equal(write.status, 409);
    assert.equal(await scopeBytes(t.deps, alice), 8, "a write (even a refused one) drops it");
  } finally {
    await t.close();
  }
});
