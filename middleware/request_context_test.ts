import assert from "node:assert/strict";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../lib/state.ts";
import { middlewareApp, testApp } from "../tests/_helpers.ts";
import { setRequestUser } from "./request_context.ts";

Deno.test("setRequestUser() sets the user and builds one context from the app's services", async () => {
  const t = await testApp({
    users: [{ username: "alice", scope: "/alice", perm: { create: true } }],
    settings: { rules: [{ regex: false, allow: false, path: "/secret", regexp: null }] },
  });
  try {
    const login: MiddlewareHandler<AppEnv> = async (c, next) => {
      await setRequestUser(c, { user: t.users.alice, sessionId: "s1", renew: true });
      await next();
    };
    const app = middlewareApp(t.deps, login);
    app.get("/", (c) => {
      const { ctx } = c.var;
      assert.equal(c.var.user, ctx.user);
      assert.equal(ctx.user.username, "alice");
      assert.equal(c.var.sessionId, "s1");
      assert.equal(c.var.renew, true);
      assert.equal(ctx.gate.root, t.root);
      assert.equal(ctx.gate.user, ctx.user);
      assert.deepEqual(ctx.gate.globalRules.map((r) => r.path), ["/secret"]);
      assert.equal(typeof ctx.gate.foldCase, "boolean");
      assert.equal(ctx.previews, t.deps.previews);
      assert.equal(ctx.hooks, t.deps.hooks);
      assert.equal(ctx.kv, t.deps.kv);
      assert.equal(ctx.deps, t.deps);
      return c.text("ok");
    });
    const res = await app.request("http://x/");
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "ok");
  } finally {
    await t.close();
  }
});

Deno.test("the case-folding probe runs once per app, however many requests build a context", async () => {
  const t = await testApp();
  try {
    // One promise for the app: the probe (a file created and removed in the root) is not repeated per request.
    const probe = t.deps.foldCase();
    assert.equal(t.deps.foldCase(), probe);
    const app = middlewareApp(t.deps, async (c, next) => {
      await setRequestUser(c, { user: t.users.admin });
      await next();
    });
    app.get("/", (c) => c.text(String(c.var.ctx.gate.foldCase)));
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () => await (await app.request("http://x/")).text()),
    );
    assert.deepEqual(answers, Array(5).fill(String(await probe)));
    const leftovers = [];
    for await (const e of Deno.readDir(t.root)) leftovers.push(e.name);
    assert.deepEqual(leftovers, []);
  } finally {
    await t.close();
  }
});
