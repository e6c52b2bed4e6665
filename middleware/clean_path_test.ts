import assert from "node:assert/strict";
import { Hono } from "hono";
import { cleanPath } from "./clean_path.ts";

function appAt(baseUrl: string): Hono {
  const app = new Hono();
  app.use("*", cleanPath({ baseUrl }));
  app.all("*", (c) => c.text("reached"));
  return app;
}

Deno.test("cleanPath() redirects unclean paths and bare API prefixes, and lets clean ones through", async () => {
  const table: [string, string, number, string | null][] = [
    ["", "/files/a", 200, null],
    ["", "/files//a", 301, "/files/a"],
    ["", "/files///a//?x=1", 301, "/files/a/?x=1"],
    ["", "//", 301, "/"],
    ["", "/api/resources", 301, "/api/resources/"],
    ["", "/api/public/dl?token=t", 301, "/api/public/dl/?token=t"],
    ["", "/api/resources/", 200, null],
    ["", "/api/users", 200, null],
    ["", "/files/..a", 200, null],
    ["/fb", "/fb", 301, "/fb/"],
    ["/fb", "/fb/files/", 200, null],
  ];
  for (const [base, path, status, location] of table) {
    const res = await appAt(base).request(`http://x${path}`);
    assert.equal(res.status, status, `${base} ${path}`);
    assert.equal(res.headers.get("Location"), location, `${base} ${path}`);
    await res.body?.cancel();
  }
});
