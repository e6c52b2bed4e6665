/** HTTP tests of human verification on login against a local fake provider: verdicts, throttle, config, CSP. */
import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import type { TestAppOptions } from "../_helpers.ts";
import { DEFAULT_CSP } from "../../middleware/security_headers.ts";
import { FAKE_SECRET, FAKE_SITE_KEY, startFakeCaptcha, unreachableUrl } from "../fixtures/fake_captcha.ts";

function json(body: unknown): RequestInit {
  return { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } };
}

function withCaptcha(host: string, options: TestAppOptions = {}): TestAppOptions {
  return {
    users: [{ username: "alice" }],
    ...options,
    config: { recaptcha: { host, key: FAKE_SITE_KEY, secret: FAKE_SECRET }, ...options.config },
  };
}

function startupConfig(html: string): Record<string, unknown> {
  const m = html.match(/<script type="application\/json" id="fb-config">([\s\S]*?)<\/script>/);
  assert.ok(m, "no startup config");
  return JSON.parse(m[1]);
}

async function captureErrors<T>(fn: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  // The test reads what lib/log.ts writes.
  const sink = console;
  const original = sink.error;
  sink.error = (...args: unknown[]) => lines.push(args.map(String).join(" "));
  try {
    return { result: await fn(), lines };
  } finally {
    sink.error = original;
  }
}

Deno.test("login with verification: a solved token passes, a missing or refused one is 403 like a wrong password", async () => {
  const fake = startFakeCaptcha();
  const t = await testApp(withCaptcha(fake.url));
  try {
    const ok = await t.request(
      "/api/login",
      json({ username: "alice", password: TEST_PASSWORD, recaptcha: "pass-1" }),
    );
    assert.equal(ok.status, 200);
    assert.equal((await ok.text()).split(".").length, 3);
    assert.deepEqual(fake.calls, [{ secret: FAKE_SECRET, response: "pass-1" }]);
    for (const recaptcha of [undefined, "", "robot"]) {
      const r = await t.request(
        "/api/login",
        json({ username: "alice", password: TEST_PASSWORD, recaptcha }),
      );
      assert.equal(r.status, 403, String(recaptcha));
      assert.equal(await r.text(), "403 Forbidden\n");
    }
    assert.equal(fake.calls.length, 2, "a missing token is refused without asking the provider");
    const typed = await t.request("/api/login", json({ username: "alice", password: "x", recaptcha: 5 }));
    assert.equal(typed.status, 400);
    await typed.body?.cancel();
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("login with verification: an unreachable provider is 500 with a log line, and counts as an attempt", async () => {
  const t = await testApp(withCaptcha(await unreachableUrl(), { config: { loginRateLimit: 2 } }));
  try {
    const body = json({ username: "alice", password: TEST_PASSWORD, recaptcha: "pass-1" });
    const { result, lines } = await captureErrors(async () => {
      const r = await t.request("/api/login", body);
      return { status: r.status, text: await r.text() };
    });
    assert.deepEqual(result, { status: 500, text: "500 Internal Server Error\n" });
    assert.ok(lines.some((l) => /ERROR .*captcha_unavailable/.test(l)), lines.join("\n"));
    await captureErrors(async () => await (await t.request("/api/login", body)).body?.cancel());
    const third = await t.request("/api/login", body);
    assert.equal(third.status, 429);
    await third.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("login with verification: refused tokens count towards the throttle; guests need no token", async () => {
  const fake = startFakeCaptcha();
  const t = await testApp(
    withCaptcha(fake.url, {
      users: [{ username: "alice" }, { username: "guest" }],
      config: { loginRateLimit: 3 },
    }),
  );
  try {
    await t.request("/api/settings", {
      method: "PUT",
      as: "admin",
      body: JSON.stringify({
        ...(await (await t.request("/api/settings", { as: "admin" })).json()),
        enableGuest: true,
      }),
    }).then((r) => r.body?.cancel());
    const guest = await t.request("/api/login", json({ username: "guest", password: "" }));
    assert.equal(guest.status, 200, "guest mode logs in without a token");
    await guest.body?.cancel();
    for (let i = 0; i < 3; i++) {
      const r = await t.request(
        "/api/login",
        json({ username: "alice", password: TEST_PASSWORD, recaptcha: "bot" }),
      );
      assert.equal(r.status, 403);
      await r.body?.cancel();
    }
    const late = await t.request(
      "/api/login",
      json({ username: "alice", password: TEST_PASSWORD, recaptcha: "pass-9" }),
    );
    assert.equal(late.status, 429);
    await late.body?.cancel();
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("login with verification: the provider gets the client address over a real connection", async () => {
  const fake = startFakeCaptcha();
  // The client at the other end of a proxy on this host, which --trusted-proxies names.
  const t = await testApp(withCaptcha(fake.url, { config: { trustedProxies: ["127.0.0.1"] } }));
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} },
    t.app.fetch,
  );
  try {
    const r = await fetch(`http://127.0.0.1:${server.addr.port}/api/login`, {
      ...json({ username: "alice", password: TEST_PASSWORD, recaptcha: "pass-1" }),
      headers: { "X-Forwarded-For": "198.51.100.7" },
    });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    assert.deepEqual(fake.calls, [{ secret: FAKE_SECRET, response: "pass-1", remoteip: "198.51.100.7" }]);
  } finally {
    ac.abort();
    await server.finished;
    await t.close();
    await fake.close();
  }
});

Deno.test("startup config: ReCaptcha, ReCaptchaHost and ReCaptchaKey only with verification on", async () => {
  const on = await testApp(withCaptcha("https://captcha.example"));
  const off = await testApp();
  try {
    const a = startupConfig(await (await on.request("/login")).text());
    assert.equal(a.ReCaptcha, true);
    assert.equal(a.ReCaptchaHost, "https://captcha.example");
    assert.equal(a.ReCaptchaKey, FAKE_SITE_KEY);
    assert.ok(!JSON.stringify(a).includes(FAKE_SECRET), "the secret never reaches a page");
    const b = startupConfig(await (await off.request("/login")).text());
    assert.equal(b.ReCaptcha, false);
    assert.equal("ReCaptchaHost" in b || "ReCaptchaKey" in b, false);
  } finally {
    await on.close();
    await off.close();
  }
});

Deno.test("CSP: the provider's host is allowed on the login page only, and only with verification on", async () => {
  for (const baseUrl of ["", "/fb"]) {
    const on = await testApp(withCaptcha("https://captcha.example/", { config: { baseUrl } }));
    const off = await testApp({ config: { baseUrl } });
    try {
      const r = await on.request(`${baseUrl}/login?redirect=%2Ffiles%2F`);
      assert.equal(r.status, 200);
      await r.body?.cancel();
      const csp = r.headers.get("Content-Security-Policy")!;
      const directive = (name: string) => csp.split("; ").find((d) => d.startsWith(name + " "))!;
      for (const name of ["script-src", "frame-src", "connect-src"]) {
        assert.equal(
          directive(name).split(" ").filter((s) => s === "https://captcha.example").length,
          1,
          name,
        );
      }
      for (const name of ["default-src", "img-src", "style-src", "object-src", "base-uri", "form-action"]) {
        assert.ok(!directive(name).includes("captcha.example"), name);
      }
      for (const path of ["/files/", "/api/renew", "/share/abc", "/static/app.css", "/settings/profile"]) {
        const other = await on.request(`${baseUrl}${path}`, { as: "admin" });
        await other.body?.cancel();
        assert.equal(other.headers.get("Content-Security-Policy"), DEFAULT_CSP, path);
      }
      const plain = await off.request(`${baseUrl}/login`);
      await plain.body?.cancel();
      assert.equal(plain.headers.get("Content-Security-Policy"), DEFAULT_CSP);
    } finally {
      await on.close();
      await off.close();
    }
  }
  const google = await testApp(withCaptcha("https://www.google.com"));
  try {
    const r = await google.request("/login");
    await r.body?.cancel();
    assert.match(
      r.headers.get("Content-Security-Policy")!,
      /script-src 'self' https:\/\/www\.google\.com https:\/\/www\.gstatic\.com\/recaptcha\//,
    );
  } finally {
    await google.close();
  }
});
