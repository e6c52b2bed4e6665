/** HTTP tests of the app's dependencies: built once per app by lib/boot.ts, shared with nothing else. */
import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";

Deno.test("static files and the health check answer without reading the settings; pages read them from memory", async () => {
  const t = await testApp();
  try {
    let reads = 0;
    const settings = t.deps.cache.settings.bind(t.deps.cache);
    t.deps.cache.settings = () => (reads++, settings());
    const first = (await Array.fromAsync(Deno.readDir(new URL("../../static", import.meta.url))))
      .find((e) => e.isFile)!.name;
    for (const path of [`/static/${first}`, "/static/missing.css", "/_islands/missing.js", "/health"]) {
      const res = await t.request(path);
      assert.notEqual(res.status, 500, path);
      await res.body?.cancel();
    }
    assert.equal(reads, 0);
    const login = await t.request("/login");
    assert.equal(login.status, 200);
    await login.body?.cancel();
    assert.equal(reads, 1);
  } finally {
    await t.close();
  }
});

Deno.test("two apps in one process share no service: caches, previews, throttles, leases, credentials, index", async () => {
  const a = await testApp();
  const b = await testApp();
  try {
    for (
      const name of [
        "cache",
        "previews",
        "leases",
        "usage",
        "foldCase",
        "davCredentials",
        "listings",
        "folderSizes",
        "searchIndex",
      ] as const
    ) {
      assert.notEqual(a.deps[name], b.deps[name], name);
    }
    for (const name of ["login", "share", "reauth"] as const) {
      assert.notEqual(a.deps.throttles[name], b.deps.throttles[name], name);
    }
    assert.notEqual(a.deps.throttles.login, a.deps.throttles.share);
  } finally {
    await a.close();
    await b.close();
  }
});
