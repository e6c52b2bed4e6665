import assert from "node:assert/strict";
import { auditPage } from "../lib/audit/query.ts";
import { middlewareApp, testApp } from "../tests/_helpers.ts";
import { auditTrail } from "./audit_trail.ts";
import { requireUser } from "./require_user.ts";

Deno.test("auditTrail() records changes once answered, failures too, and leaves reads and upgrades out", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  try {
    const app = middlewareApp(t.deps, auditTrail(""), requireUser());
    app.delete("/api/resources/*", (c) => c.body(null, c.req.path.endsWith("missing.txt") ? 404 : 204));
    app.get("/api/resources/*", (c) => c.text("listing"));
    app.post("/api/tus/*", (c) => {
      c.set("auditNote", { detail: "from the route" });
      return c.body(null, 201);
    });
    const as = { headers: { "X-Auth": t.tokens.alice } };
    const requests: [string, string, Record<string, string>?][] = [
      ["DELETE", "/api/resources/a.txt"],
      ["DELETE", "/api/resources/missing.txt"],
      ["GET", "/api/resources/a.txt"],
      ["POST", "/api/tus/big.bin"],
      // An upgrade passes untouched (the runner records its sessions itself).
      ["DELETE", "/api/resources/b.txt", { Upgrade: "websocket" }],
    ];
    for (const [method, path, extra] of requests) {
      const res = await app.request(`http://x${path}`, { method, headers: { ...as.headers, ...extra } });
      await res.body?.cancel();
    }
    const { entries } = await auditPage(t.deps.kv, {}, { limit: 10 });
    const seen = entries.map((e) => [e.action, e.path, e.status, e.user, e.detail]).reverse();
    assert.deepEqual(seen, [
      ["file.delete", "/a.txt", 204, "alice", ""],
      ["file.delete", "/missing.txt", 404, "alice", ""],
      ["file.upload_start", "/big.bin", 201, "alice", "from the route"],
    ]);
  } finally {
    await t.close();
  }
});
