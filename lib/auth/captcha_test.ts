import assert from "node:assert/strict";
import { ForbiddenError, HttpError } from "../errors.ts";
import { verifyCaptcha } from "./captcha.ts";
import { FAKE_SECRET, startFakeCaptcha, unreachableUrl } from "../../tests/fixtures/fake_captcha.ts";

const status = (err: unknown) => err instanceof HttpError ? err.status : String(err);

Deno.test("verifyCaptcha() posts secret, response and remoteip to <host>/recaptcha/api/siteverify", async () => {
  const fake = startFakeCaptcha();
  try {
    const config = { host: fake.url, key: "k", secret: FAKE_SECRET };
    await verifyCaptcha(config, "pass-1", { remoteIp: "::ffff:198.51.100.7" });
    assert.deepEqual(fake.calls, [{ secret: FAKE_SECRET, response: "pass-1", remoteip: "198.51.100.7" }]);
    await verifyCaptcha(config, "pass-2", { remoteIp: "local" });
    assert.deepEqual(
      fake.calls[1],
      { secret: FAKE_SECRET, response: "pass-2" },
      "no remoteip when none is known",
    );
    await assert.rejects(verifyCaptcha(config, "nope"), ForbiddenError);
    await assert.rejects(verifyCaptcha({ ...config, secret: "other" }, "pass-3"), ForbiddenError);
    const calls = fake.calls.length;
    await assert.rejects(verifyCaptcha(config, ""), ForbiddenError);
    await assert.rejects(verifyCaptcha(config, "pass-" + "x".repeat(20_000)), ForbiddenError);
    assert.equal(fake.calls.length, calls, "empty and oversized tokens are refused without a call");
    fake.mode = "status500";
    assert.equal(await verifyCaptcha(config, "pass-4").catch(status), 403, "non-200 is a refusal");
    fake.mode = "garbage";
    assert.equal(
      await verifyCaptcha(config, "pass-5").catch(status),
      500,
      "an unreadable answer is a failure",
    );
  } finally {
    await fake.close();
  }
});

Deno.test("verifyCaptcha() fails with 500 when the provider is unreachable or too slow", async () => {
  const config = { host: await unreachableUrl(), key: "k", secret: "s" };
  const err = await verifyCaptcha(config, "pass-1").catch((e) => e);
  assert.equal(status(err), 500);
  assert.equal(err.code, "captcha_unavailable");
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  const ac = new AbortController();
  const slow = Deno.serve({ port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} }, async () => {
    await held;
    return Response.json({ success: true });
  });
  try {
    const t0 = performance.now();
    const config = { host: `http://127.0.0.1:${slow.addr.port}`, key: "k", secret: "s" };
    const slowErr = await verifyCaptcha(config, "pass-1", { timeoutMs: 300 }).catch((e) => e);
    assert.equal(status(slowErr), 500);
    assert.ok(performance.now() - t0 < 10_000, "the timeout cut the wait short");
  } finally {
    release();
    ac.abort();
    await slow.finished;
  }
});

Deno.test("verifyCaptcha() uses an injected fetch", async () => {
  const seen: string[] = [];
  const fakeFetch = ((url: string, init: RequestInit) => {
    seen.push(`${url} ${init.body}`);
    return Promise.resolve(Response.json({ success: true }));
  }) as typeof fetch;
  await verifyCaptcha({ host: "https://captcha.invalid", key: "k", secret: "s" }, "tok", {
    fetch: fakeFetch,
  });
  assert.deepEqual(seen, ["https://captcha.invalid/recaptcha/api/siteverify secret=s&response=tok"]);
});
