import assert from "node:assert/strict";
import { middlewareApp, testApp } from "../tests/_helpers.ts";
import { clientAddress, remoteAddress } from "./conn.ts";

Deno.test("remoteAddress() is the TCP peer of a real connection and undefined in-process; proxies count when trusted", async () => {
  // undefined: the default configuration, which trusts no proxy (loopback included).
  for (const trusted of [undefined, [], ["127.0.0.1"]]) {
    const t = await testApp(trusted ? { config: { trustedProxies: trusted } } : {});
    const app = middlewareApp(t.deps);
    app.get("/who", (c) => c.json({ remote: remoteAddress(c) ?? null, client: clientAddress(c) }));
    const ac = new AbortController();
    const server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} },
      app.fetch,
    );
    try {
      const res = await fetch(`http://127.0.0.1:${server.addr.port}/who`, {
        headers: { "X-Forwarded-For": "203.0.113.9" },
      });
      const body = await res.json();
      assert.equal(body.remote, "127.0.0.1");
      assert.equal(body.client, trusted?.length ? "203.0.113.9" : "127.0.0.1");
      const inProcess = await (await app.request("/who")).json();
      assert.equal(inProcess.remote, null);
    } finally {
      ac.abort();
      await server.finished;
      await t.close();
    }
  }
});
