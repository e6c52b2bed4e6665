import assert from "node:assert/strict";
import { Hono } from "hono";
import { DEFAULT_CSP, securityHeaders } from "./security_headers.ts";

const app = new Hono();
app.use("*", securityHeaders({ loginPath: "/login", captchaHost: "https://www.google.com" }));
app.get("/json", (c) => c.json({ ok: true }));
app.get("/login", (c) => c.text("login"));
app.get(
  "/own",
  (c) => c.body("x", 200, { "Content-Security-Policy": "sandbox", "Cache-Control": "max-age=60" }),
);

Deno.test("securityHeaders() sets the fixed headers and the default policy on every answer", async () => {
  const res = await app.request("http://x/json");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("Content-Type"), "application/json; charset=utf-8");
  assert.equal(res.headers.get("Content-Security-Policy"), DEFAULT_CSP);
  assert.equal(res.headers.get("X-Content-Type-Options"), "nosniff");
  assert.equal(res.headers.get("X-Frame-Options"), "SAMEORIGIN");
  assert.equal(res.headers.get("Referrer-Policy"), "same-origin");
  assert.equal(res.headers.get("Cache-Control"), "no-cache, no-store, must-revalidate");
  await res.body?.cancel();
});

Deno.test("securityHeaders() allows the captcha host on the login page only and keeps a handler's own policy", async () => {
  const login = await app.request("http://x/login/");
  const csp = login.headers.get("Content-Security-Policy") ?? "";
  assert.match(csp, /script-src 'self' https:\/\/www\.google\.com https:\/\/www\.gstatic\.com\/recaptcha\//);
  await login.body?.cancel();
  const unknown = await app.request("http://x/nowhere");
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers.get("Content-Security-Policy"), DEFAULT_CSP);
  await unknown.body?.cancel();
  const own = await app.request("http://x/own");
  assert.equal(own.headers.get("Content-Security-Policy"), "sandbox");
  assert.equal(own.headers.get("Cache-Control"), "max-age=60");
  await own.body?.cancel();
});
