import assert from "node:assert/strict";
import { TEST_PASSWORD, type TestApp, testApp } from "../_helpers.ts";
import { totpCode } from "../../lib/auth/totp.ts";
import { createAppPassword, verifyAppPassword } from "../../lib/auth/app_passwords.ts";
import { normalizeSettings } from "../../lib/settings.ts";
import { saveSettingsFromWire } from "../../lib/settings_wire.ts";

const T0 = 1_700_000_000_000;

function post(body: unknown, as?: string): RequestInit & { as?: string } {
  return { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" }, as };
}

function payloadOf(token: string): Record<string, unknown> {
  const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(atob(part + "=".repeat((4 - part.length % 4) % 4)));
}

/** Enrols `username` at T0 through the API; returns the secret and the recovery codes. */
async function enrol(t: TestApp, username: string): Promise<{ secret: string; codes: string[] }> {
  t.deps.now = () => T0;
  const start = await t.request("/api/twofa/enroll", post({ current_password: TEST_PASSWORD }, username));
  assert.equal(start.status, 200);
  const { secret, uri } = await start.json();
  assert.match(uri, /^otpauth:\/\/totp\/.*secret=/);
  const done = await t.request("/api/twofa/confirm", post({ code: totpCode(secret, T0) }, username));
  assert.equal(done.status, 200);
  const { recoveryCodes } = await done.json();
  assert.equal(recoveryCodes.length, 10);
  return { secret, codes: recoveryCodes };
}

function login(t: TestApp, body: Record<string, unknown>): Promise<Response> {
  return t.request("/api/login", post({ username: "alice", password: TEST_PASSWORD, ...body }));
}

Deno.test("POST /api/login asks for the code with 401 and X-2FA-Required, then takes it once", async () => {
  const t = await testApp({ users: [{ username: "alice" }], config: { loginRateLimit: 50 } });
  try {
    const { secret } = await enrol(t, "alice");
    const now = T0 + 90_000;
    t.deps.now = () => now;
    const ask = await login(t, {});
    assert.equal(ask.status, 401);
    assert.match(ask.headers.get("Content-Type") ?? "", /^text\/plain/);
    assert.equal(ask.headers.get("X-2FA-Required"), "totp");
    assert.equal(await ask.text(), "401 Unauthorized\n");
    const code = totpCode(secret, now);
    const ok = await login(t, { otp: code });
    assert.equal(ok.status, 200);
    assert.equal(payloadOf(await ok.text()).mustEnroll, undefined);
    const replay = await login(t, { otp: code });
    assert.equal(replay.status, 403);
    assert.equal(replay.headers.get("X-2FA-Required"), null);
    // A wrong password with a right code is still a wrong password.
    const wrong = await t.request(
      "/api/login",
      post({ username: "alice", password: "nope-nope-nope", otp: totpCode(secret, now + 30_000) }),
    );
    assert.equal(wrong.status, 403);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/login accepts a code one step off and refuses two steps off", async () => {
  for (const [offset, status] of [[-2, 403], [-1, 200], [1, 200], [2, 403]] as const) {
    const t = await testApp({ users: [{ username: "alice" }], config: { loginRateLimit: 50 } });
    try {
      const { secret } = await enrol(t, "alice");
      const now = T0 + 600_000;
      t.deps.now = () => now;
      const res = await login(t, { otp: totpCode(secret, now + offset * 30_000) });
      assert.equal(res.status, status, `offset ${offset}`);
      await res.body?.cancel();
    } finally {
      await t.close();
    }
  }
});

Deno.test("POST /api/login takes each recovery code once in place of a TOTP code", async () => {
  const t = await testApp({ users: [{ username: "alice" }], config: { loginRateLimit: 50 } });
  try {
    const { codes } = await enrol(t, "alice");
    assert.equal((await login(t, { otp: codes[0] })).status, 200);
    assert.equal((await login(t, { otp: codes[0] })).status, 403);
    const status = await (await t.request("/api/twofa", { as: "alice" })).json();
    assert.deepEqual(status, { enabled: true, recoveryCodesLeft: 9, required: false });
  } finally {
    await t.close();
  }
});

Deno.test("wrong codes keep their login throttle slot; asking for the code does not use one", async () => {
  const t = await testApp({ users: [{ username: "alice" }], config: { loginRateLimit: 3 } });
  try {
    const { secret } = await enrol(t, "alice");
    for (let i = 0; i < 5; i++) assert.equal((await login(t, {})).status, 401);
    for (let i = 0; i < 3; i++) assert.equal((await login(t, { otp: "000000" })).status, 403);
    const blocked = await login(t, { otp: totpCode(secret, T0 + 30_000) });
    assert.equal(blocked.status, 429);
    assert.ok(Number(blocked.headers.get("Retry-After")) > 0);
  } finally {
    await t.close();
  }
});

/** A six-digit code that is none of the codes accepted at `now` (±1 step). */
function wrongCode(secret: string, now: number): string {
  const right = new Set([-30_000, 0, 30_000].map((d) => totpCode(secret, now + d)));
  for (let n = 0;; n++) {
    const code = String(n).padStart(6, "0");
    if (!right.has(code)) return code;
  }
}

Deno.test("wrong codes from 60 forwarded addresses reach the account's budget: 429 after 10, for 15 minutes", async () => {
  const t = await testApp({
    users: [{ username: "alice" }],
    config: { loginRateLimit: 5, trustedProxies: ["127.0.0.1", "::1"] },
  });
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} },
    t.app.fetch,
  );
  // Each request claims another client: a proxy on the host (or anything allowed to speak for clients) can.
  let client = 0;
  const send = async (body: Record<string, unknown>) => {
    const res = await fetch(`http://127.0.0.1:${server.addr.port}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": `198.51.100.${++client}` },
      body: JSON.stringify({ username: "alice", password: TEST_PASSWORD, ...body }),
    });
    await res.body?.cancel();
    return res;
  };
  try {
    const { secret, codes } = await enrol(t, "alice");
    let now = T0 + 600_000;
    t.deps.now = () => now;
    // A stranger's wrong passwords never reach the second step: they spend nothing of the budget.
    for (let i = 0; i < 20; i++) {
      assert.equal((await send({ password: `wrong-${i}`, otp: wrongCode(secret, now) })).status, 403);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await send({ otp: wrongCode(secret, now) })).status);
    assert.deepEqual(statuses, [...Array(10).fill(403), ...Array(50).fill(429)]);
    now += 60_000;
    // The budget is the account's: a new client with the right code waits too, for the rest of 15 minutes.
    const blocked = await send({ otp: totpCode(secret, now) });
    assert.equal(blocked.status, 429);
    const wait = Number(blocked.headers.get("Retry-After"));
    assert.ok(wait > 800 && wait <= 900, `Retry-After ${wait}`);
    // The password step still answers (the owner is not locked out of it), and a recovery code still works.
    const ask = await send({});
    assert.equal(ask.status, 401);
    assert.equal(ask.headers.get("X-2FA-Required"), "totp");
    assert.equal((await send({ otp: codes[0] })).status, 200);
    // Once the window ended, codes are checked again.
    now = T0 + 600_000 + 15 * 60_000;
    assert.equal((await send({ otp: totpCode(secret, now) })).status, 200);
  } finally {
    ac.abort();
    await server.finished;
    await t.close();
  }
});

Deno.test("turning two-factor login off spends the same budget of wrong codes", async () => {
  const t = await testApp({ users: [{ username: "alice" }], config: { loginRateLimit: 50 } });
  try {
    const { secret } = await enrol(t, "alice");
    const now = T0 + 600_000;
    t.deps.now = () => now;
    for (let i = 0; i < 10; i++) {
      const res = await login(t, { otp: wrongCode(secret, now) });
      assert.equal(res.status, 403);
    }
    const off = await t.request(
      "/api/twofa/disable",
      post({ current_password: TEST_PASSWORD, code: totpCode(secret, now) }, "alice"),
    );
    assert.equal(off.status, 429);
    const status = await (await t.request("/api/twofa", { as: "alice" })).json();
    assert.equal(status.enabled, true);
  } finally {
    await t.close();
  }
});

Deno.test("simultaneous logins with one code: exactly one gets a token", async () => {
  const t = await testApp({ users: [{ username: "alice" }], config: { loginRateLimit: 50 } });
  try {
    const { secret } = await enrol(t, "alice");
    const now = T0 + 300_000;
    t.deps.now = () => now;
    const code = totpCode(secret, now);
    const statuses = await Promise.all(Array.from({ length: 6 }, async () => {
      const res = await login(t, { otp: code });
      await res.body?.cancel();
      return res.status;
    }));
    assert.deepEqual(statuses.sort(), [200, 403, 403, 403, 403, 403]);
  } finally {
    await t.close();
  }
});

Deno.test("enrolment needs the current password; confirmation refuses a wrong code with 400", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  try {
    const bad = await t.request("/api/twofa/enroll", post({ current_password: "nope" }, "alice"));
    assert.equal(bad.status, 400);
    const none = await t.request("/api/twofa/enroll", post({}, "alice"));
    assert.equal(none.status, 400);
    const start = await t.request("/api/twofa/enroll", post({ current_password: TEST_PASSWORD }, "alice"));
    assert.equal(start.status, 200);
    await start.body?.cancel();
    const wrong = await t.request("/api/twofa/confirm", post({ code: "000000" }, "alice"));
    assert.equal(wrong.status, 400);
    assert.match(await wrong.text(), /code is incorrect/);
    const typed = await t.request("/api/twofa/confirm", post({ code: 123456 }, "alice"));
    assert.equal(typed.status, 400);
    // Not enabled: logins still need no code.
    assert.equal((await login(t, {})).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("disabling needs the password and a code; an admin resets with their own password", async () => {
  const t = await testApp({
    users: [{ username: "alice" }, { username: "bob" }],
    config: { loginRateLimit: 50 },
  });
  try {
    const { secret } = await enrol(t, "alice");
    const now = T0 + 60_000;
    t.deps.now = () => now;
    const noCode = await t.request("/api/twofa/disable", post({ current_password: TEST_PASSWORD }, "alice"));
    assert.equal(noCode.status, 400);
    const noPass = await t.request("/api/twofa/disable", post({ code: totpCode(secret, now) }, "alice"));
    assert.equal(noPass.status, 400);
    const off = await t.request(
      "/api/twofa/disable",
      post({ current_password: TEST_PASSWORD, code: totpCode(secret, now) }, "alice"),
    );
    assert.equal(off.status, 200);
    assert.equal((await login(t, {})).status, 200);

    await enrol(t, "alice");
    const reset = (as: string, body: unknown) =>
      t.request(`/api/users/${t.users.alice.id}/twofa`, { ...post(body, as), method: "DELETE" });
    assert.equal((await reset("bob", { current_password: TEST_PASSWORD })).status, 403);
    assert.equal((await t.request(`/api/users/${t.users.alice.id}/twofa`, { method: "DELETE" })).status, 401);
    assert.equal((await reset("admin", { current_password: "nope" })).status, 400);
    assert.equal(
      (await t.request("/api/users/999/twofa", {
        ...post({ current_password: TEST_PASSWORD }, "admin"),
        method: "DELETE",
      })).status,
      404,
    );
    assert.equal((await reset("admin", { current_password: TEST_PASSWORD })).status, 200);
    assert.equal((await login(t, {})).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("a required enrolment: mustEnroll claim, 403 elsewhere, the enrolment and logout still work", async () => {
  const t = await testApp({
    users: [{ username: "alice", perm: { download: true } }],
    settings: { twoFactorRequired: "all" },
  });
  try {
    const res = await login(t, {});
    assert.equal(res.status, 200);
    const token = await res.text();
    assert.equal(payloadOf(token).mustEnroll, true);
    const headers = { "X-Auth": token };
    const listing = await t.app.request("/api/resources/", { headers });
    assert.equal(listing.status, 403);
    assert.equal(listing.headers.get("X-2FA-Enroll"), "required");
    const status = await t.app.request("/api/twofa", { headers });
    assert.equal(status.status, 200);
    assert.deepEqual(await status.json(), { enabled: false, recoveryCodesLeft: 0, required: true });
    const page = await t.app.request("/files/", { headers: { Cookie: `auth=${token}` } });
    assert.equal(page.status, 302);
    assert.equal(page.headers.get("Location"), "/settings/profile");
    const profile = await t.app.request("/settings/profile", { headers: { Cookie: `auth=${token}` } });
    assert.equal(profile.status, 200);
    await profile.body?.cancel();

    await enrol(t, "alice");
    assert.equal((await t.app.request("/api/resources/", { headers })).status, 200);
    const renewed = await t.app.request("/api/renew", { method: "POST", headers });
    assert.equal(renewed.status, 200);
    assert.equal(payloadOf(await renewed.text()).mustEnroll, undefined);
  } finally {
    await t.close();
  }
});

Deno.test('twoFactorRequired "admins" leaves other users alone; proxy auth never requires enrolment', async () => {
  const t = await testApp({ users: [{ username: "alice" }], settings: { twoFactorRequired: "admins" } });
  try {
    assert.equal((await t.request("/api/usage/", { as: "alice" })).status, 200);
    const admin = await t.request("/api/usage/", { as: "admin" });
    assert.equal(admin.status, 403);
  } finally {
    await t.close();
  }
  const p = await testApp({ settings: { twoFactorRequired: "all" }, config: { authMethod: "proxy" } });
  try {
    assert.equal((await p.request("/api/usage/", { as: "admin" })).status, 200);
  } finally {
    await p.close();
  }
});

Deno.test("the two-factor endpoints need a login", async () => {
  const t = await testApp();
  try {
    for (
      const [method, path] of [["GET", "/api/twofa"], ["POST", "/api/twofa/enroll"], [
        "POST",
        "/api/twofa/confirm",
      ], ["POST", "/api/twofa/disable"]]
    ) {
      const res = await t.request(path, { method, body: method === "POST" ? "{}" : undefined });
      assert.equal(res.status, 401, `${method} ${path}`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("settings carry appPasswordsForLogin and twoFactorRequired, and PUT validates them", async () => {
  const t = await testApp();
  try {
    const got = await (await t.request("/api/settings", { as: "admin" })).json();
    assert.equal(got.appPasswordsForLogin, false);
    assert.equal(got.twoFactorRequired, "");
    const put = (body: unknown) =>
      t.request("/api/settings", { method: "PUT", body: JSON.stringify(body), as: "admin" });
    assert.equal((await put({ ...got, twoFactorRequired: 3 })).status, 400);
    assert.equal(
      (await put({ ...got, twoFactorRequired: "admins", appPasswordsForLogin: true })).status,
      200,
    );
    // The admin is now required to enrol: the settings API answers 403 until they do.
    const blocked = await t.request("/api/settings", { as: "admin" });
    assert.equal(blocked.status, 403);
    assert.equal(blocked.headers.get("X-2FA-Enroll"), "required");
    const after = normalizeSettings(await t.deps.store.findSettings());
    assert.equal(after.twoFactorRequired, "admins");
    assert.equal(after.appPasswordsForLogin, true);
    // A client that does not know the keys keeps them.
    assert.deepEqual(
      saveSettingsFromWire({ ...got, twoFactorRequired: undefined, appPasswordsForLogin: undefined }, after)
        .twoFactorRequired,
      "admins",
    );
  } finally {
    await t.close();
  }
});

Deno.test("an admin resetting their own two-factor login needs a code; a reset revokes the user's app passwords", async () => {
  const t = await testApp({ users: [{ username: "alice" }], config: { loginRateLimit: 50 } });
  try {
    const { secret } = await enrol(t, "admin");
    const now = T0 + 60_000;
    t.deps.now = () => now;
    const own = (body: unknown) =>
      t.request(`/api/users/1/twofa`, { ...post(body, "admin"), method: "DELETE" });
    assert.equal((await own({ current_password: TEST_PASSWORD })).status, 400, "the password alone");
    assert.equal(
      (await own({ current_password: TEST_PASSWORD, code: "000000" })).status,
      400,
      "a wrong code",
    );
    const status = await t.request("/api/twofa", { as: "admin" });
    assert.equal((await status.json()).enabled, true);
    assert.equal((await own({ current_password: TEST_PASSWORD, code: totpCode(secret, now) })).status, 200);
    assert.equal((await (await t.request("/api/twofa", { as: "admin" })).json()).enabled, false);

    await enrol(t, "alice");
    const made = await createAppPassword(t.deps.kv, t.users.alice.id, { name: "dav", now: T0 });
    const reset = await t.request(`/api/users/${t.users.alice.id}/twofa`, {
      ...post({ current_password: TEST_PASSWORD }, "admin"),
      method: "DELETE",
    });
    assert.equal(reset.status, 200, "another user's: the admin's password is enough");
    assert.equal(await verifyAppPassword(t.deps.kv, t.users.alice, made.password), null);
  } finally {
    await t.close();
  }
});

Deno.test("turning two-factor login on may end the user's other sessions (endOtherSessions)", async () => {
  const t = await testApp({
    users: [{ username: "alice" }, { username: "bob" }],
    config: { loginRateLimit: 50 },
  });
  try {
    const statusOf = async (token: string) => {
      const res = await t.request("/api/resources/", { headers: { "X-Auth": token } });
      await res.body?.cancel();
      return res.status;
    };
    const confirm = async (as: string, endOtherSessions?: unknown) => {
      t.deps.now = () => T0;
      const start =
        await (await t.request("/api/twofa/enroll", post({ current_password: TEST_PASSWORD }, as)))
          .json();
      const body = { code: totpCode(start.secret, T0), endOtherSessions };
      return await t.request("/api/twofa/confirm", post(body, as));
    };
    t.deps.now = () => T0;
    const other = await (await login(t, {})).text();
    const bobOther = await (await t.request("/api/login", post({ username: "bob", password: TEST_PASSWORD })))
      .text();
    assert.equal((await confirm("alice", "yes")).status, 400, "a flag that is not a boolean");
    const ended = await confirm("alice", true);
    assert.equal(ended.status, 200);
    const answer = await ended.json();
    assert.equal(answer.recoveryCodes.length, 10);
    assert.equal(answer.sessionsEnded, 1);
    assert.equal(await statusOf(other), 401, "the other session ended");
    assert.equal(await statusOf(t.tokens.alice), 200, "the session that turned it on stays");

    const kept = await confirm("bob");
    assert.equal(kept.status, 200);
    assert.equal((await kept.json()).sessionsEnded, 0);
    assert.equal(await statusOf(bobOther), 200, "without the flag the other sessions stay");
  } finally {
    await t.close();
  }
});
