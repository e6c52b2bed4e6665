/** Re-authentication of account changes (docs/api.md#users) and the `which` cap: a stolen token is not enough. */
import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import type { TestApp } from "../_helpers.ts";
import { hashPassword, verifyPassword } from "../../lib/auth/passwords.ts";
import { users } from "../../lib/storage/mod.ts";

const INCORRECT = "400 Bad Request (the current password is incorrect)\n";
const MISSING =
  `400 Bad Request ("current_password" is missing: the requester's own password, in the JSON body)\n`;
const ALICE_PASSWORD = "alice-own-password-7";

/** An app where alice's password differs from everybody else's (TEST_PASSWORD). */
async function appWithAlice(config: Parameters<typeof testApp>[0] = {}): Promise<TestApp> {
  // These tables send many wrong current passwords on purpose: a high limit keeps the throttle out of the way.
  const t = await testApp({
    users: [{ username: "alice", perm: { download: true } }],
    ...config,
    config: { loginRateLimit: 1000, ...config.config },
  });
  const hash = await hashPassword(ALICE_PASSWORD);
  await users.mutateUser(t.deps.kv, t.users.alice.id, (u) => ({ ...u, passwordHash: hash }));
  return t;
}

function put(id: number, which: unknown, data: Record<string, unknown>, current?: unknown): RequestInit {
  const body: Record<string, unknown> = { what: "user", which, data: { id, ...data } };
  if (current !== undefined) body.current_password = current;
  return { method: "PUT", body: JSON.stringify(body) };
}

/** What each security field is set to in the attempts below. */
const CHANGES: Record<string, Record<string, unknown>> = {
  password: { password: "a-brand-new-password" },
  username: { username: "mallory" },
  scope: { scope: "/elsewhere" },
  perm: { perm: { admin: true, download: true } },
  commands: { commands: ["rm"] },
  rules: { rules: [{ regex: false, allow: false, path: "/x", regexp: { raw: "" } }] },
  lockPassword: { lockPassword: true },
};

const SECURITY_WHICH: unknown[][] = [
  ["password"],
  ["PASSWORD"],
  ["username"],
  ["Username"],
  ["scope"],
  ["perm"],
  ["Perm"],
  ["commands"],
  ["rules"],
  ["lockPassword"],
  ["lockpassword"],
  ["LOCKPASSWORD"],
  ["locale", "password"],
  ["all"],
  ["ALL"],
  [],
];

Deno.test("PUT /api/users/{id}: every security field needs the requester's current password; nothing is written without it", async () => {
  const t = await appWithAlice();
  try {
    const id = t.users.alice.id;
    const before = await users.getUser(t.deps.kv, id);
    const data = { ...Object.assign({}, ...Object.values(CHANGES)), username: "mallory", locale: "fr" };
    for (const which of SECURITY_WHICH) {
      // Missing, empty, wrong, of another type, and the target's password instead of the requester's.
      for (const current of [undefined, "", "wrong-password-123", 42, ALICE_PASSWORD]) {
        const res = await t.request(`/api/users/${id}`, { as: "admin", ...put(id, which, data, current) });
        assert.equal(res.status, 400, `${JSON.stringify(which)} with ${JSON.stringify(current)}`);
        assert.equal(await res.text(), current === undefined ? MISSING : INCORRECT);
      }
    }
    assert.deepEqual(await users.getUser(t.deps.kv, id), before);
    const ok = await t.request(`/api/users/${id}`, {
      as: "admin",
      ...put(id, ["perm"], { perm: { download: true, share: true } }, TEST_PASSWORD),
    });
    assert.equal(ok.status, 200);
    assert.equal((await users.getUser(t.deps.kv, id)).perm.share, true);
  } finally {
    await t.close();
  }
});

Deno.test("PUT /api/users/{id}: a stolen token cannot change its owner's password", async () => {
  const t = await appWithAlice();
  try {
    const id = t.users.alice.id;
    const steal = await t.request(`/api/users/${id}`, {
      as: "alice",
      ...put(id, ["password"], CHANGES.password),
    });
    assert.equal(steal.status, 400);
    assert.equal(await steal.text(), MISSING);
    const login = (password: string) =>
      t.request("/api/login", { method: "POST", body: JSON.stringify({ username: "alice", password }) });
    assert.equal((await login("a-brand-new-password")).status, 403);
    assert.equal((await login(ALICE_PASSWORD)).status, 200);
    const own = await t.request(`/api/users/${id}`, {
      as: "alice",
      ...put(id, ["password"], CHANGES.password, ALICE_PASSWORD),
    });
    assert.equal(own.status, 200);
    assert.equal((await login("a-brand-new-password")).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("PUT /api/users/{id}: preferences need no password", async () => {
  const t = await appWithAlice();
  try {
    const id = t.users.alice.id;
    const res = await t.request(`/api/users/${id}`, {
      as: "alice",
      ...put(id, ["locale", "hideDotfiles", "singleClick", "dateFormat", "theme", "viewMode", "sorting"], {
        locale: "de",
        hideDotfiles: true,
        viewMode: "mosaic",
        sorting: { by: "size", asc: true },
      }),
    });
    assert.equal(res.status, 200);
    const u = await users.getUser(t.deps.kv, id);
    assert.equal(u.locale, "de");
    assert.deepEqual(u.sorting, { by: "size", asc: true });
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/users: an admin token alone cannot create an admin", async () => {
  const t = await appWithAlice();
  try {
    const body = (current?: unknown) =>
      JSON.stringify({
        what: "user",
        which: [],
        ...(current === undefined ? {} : { current_password: current }),
        data: { id: 0, username: "eve", password: "a-long-password-1", perm: { admin: true } },
      });
    for (const current of [undefined, "", "nope-nope-nope", null]) {
      const res = await t.request("/api/users", { method: "POST", as: "admin", body: body(current) });
      assert.equal(res.status, 400, JSON.stringify(current));
      assert.equal(await res.text(), current === undefined || current === null ? MISSING : INCORRECT);
    }
    assert.equal(await users.findUserByName(t.deps.kv, "eve"), null);
    const ok = await t.request("/api/users", { method: "POST", as: "admin", body: body(TEST_PASSWORD) });
    assert.equal(ok.status, 201);
    assert.equal((await users.findUserByName(t.deps.kv, "eve"))?.perm.admin, true);
  } finally {
    await t.close();
  }
});

Deno.test("DELETE /api/users/{id}: deleting an account needs the requester's current password", async () => {
  const t = await appWithAlice({ users: [{ username: "alice" }, { username: "bob" }] });
  try {
    const del = (id: number, as: string, body: string) =>
      t.request(`/api/users/${id}`, { method: "DELETE", as, body });
    const alice = t.users.alice.id;
    for (
      const body of [
        JSON.stringify({ current_password: "" }),
        JSON.stringify({ current_password: "wrong-1" }),
      ]
    ) {
      const res = await del(alice, "alice", body);
      assert.equal(res.status, 400);
      assert.equal(await res.text(), INCORRECT);
    }
    // Without a body, or without the key, the answer names what is missing.
    for (const body of ["", "{}", "  "]) {
      const res = await del(alice, "alice", body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(await res.text(), MISSING, JSON.stringify(body));
    }
    const admin = await del(t.users.bob.id, "admin", JSON.stringify({ current_password: ALICE_PASSWORD }));
    assert.equal(admin.status, 400);
    assert.ok(await users.findUser(t.deps.kv, alice));
    assert.ok(await users.findUser(t.deps.kv, t.users.bob.id));
    assert.equal(
      (await del(alice, "alice", JSON.stringify({ current_password: ALICE_PASSWORD }))).status,
      200,
    );
    assert.equal(await users.findUser(t.deps.kv, alice), null);
    assert.equal(
      (await del(t.users.bob.id, "admin", JSON.stringify({ current_password: TEST_PASSWORD }))).status,
      200,
    );
  } finally {
    await t.close();
  }
});

for (const authMethod of ["proxy", "noauth"] as const) {
  Deno.test(`with ${authMethod} auth no current password is asked for`, async () => {
    const t = await appWithAlice({ config: { authMethod } });
    try {
      const id = t.users.alice.id;
      const res = await t.request(`/api/users/${id}`, {
        as: "admin",
        ...put(id, ["all"], { username: "alice2" }),
      });
      assert.equal(res.status, 200);
      assert.equal((await users.getUser(t.deps.kv, id)).username, "alice2");
      const created = await t.request("/api/users", {
        method: "POST",
        as: "admin",
        body: JSON.stringify({
          what: "user",
          which: [],
          data: { username: "zed", password: "a-long-password-1" },
        }),
      });
      assert.equal(created.status, 201);
      assert.equal(
        (await t.request(`/api/users/${id}`, { method: "DELETE", as: "admin", body: "{}" })).status,
        200,
      );
      // Nor a body at all.
      const zed = (await users.findUserByName(t.deps.kv, "zed"))!.id;
      assert.equal((await t.request(`/api/users/${zed}`, { method: "DELETE", as: "admin" })).status, 200);
    } finally {
      await t.close();
    }
  });
}

Deno.test("PUT /api/users/{id}: `which` is capped; a repeated field is applied once", async () => {
  const t = await appWithAlice();
  try {
    const id = t.users.alice.id;
    const before = await users.getUser(t.deps.kv, id);
    // 60 × "password" used to mean 60 bcrypt hashes (~14 s of CPU) in one request.
    const t0 = performance.now();
    const flood = await t.request(`/api/users/${id}`, {
      as: "alice",
      ...put(id, Array(60).fill("password"), CHANGES.password, ALICE_PASSWORD),
    });
    assert.equal(flood.status, 400);
    assert.match(await flood.text(), /too many fields/);
    assert.ok(performance.now() - t0 < 3000, `${performance.now() - t0} ms`);
    assert.deepEqual(await users.getUser(t.deps.kv, id), before);
    const unknown = await t.request(`/api/users/${id}`, {
      as: "alice",
      ...put(id, ["locale", "passwordHash"], { locale: "fr" }),
    });
    assert.equal(unknown.status, 400);
    assert.equal(await unknown.text(), '400 Bad Request (unknown user field "passwordHash")\n');
    const dup = await t.request(`/api/users/${id}`, {
      as: "alice",
      ...put(id, ["password", "Password", "PASSWORD"], CHANGES.password, ALICE_PASSWORD),
    });
    assert.equal(dup.status, 200);
    assert.deepEqual((await users.getUser(t.deps.kv, id)).sessionEpoch, (before.sessionEpoch ?? 0) + 1);
  } finally {
    await t.close();
  }
});

Deno.test("the profile page asks for the current password with json auth only", async () => {
  for (const authMethod of ["json", "proxy", "noauth"] as const) {
    const t = await testApp({ config: { authMethod } });
    try {
      const res = await t.request("/settings/profile", { headers: { Cookie: `auth=${t.tokens.admin}` } });
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /name="passwordConfirm"/);
      assert.equal(/name="currentPassword"/.test(html), authMethod === "json", authMethod);
    } finally {
      await t.close();
    }
  }
});

Deno.test("wrong current passwords are throttled like logins (429 past the limit, also for the right one)", async () => {
  const t = await appWithAlice({ config: { loginRateLimit: 3 } });
  try {
    const id = t.users.alice.id;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.request(`/api/users/${id}`, {
        as: "alice",
        ...put(id, ["password"], CHANGES.password, `wrong-guess-${i}`),
      });
      await res.body?.cancel();
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [400, 400, 400, 429]);
    const right = await t.request(`/api/users/${id}`, {
      as: "alice",
      ...put(id, ["password"], CHANGES.password, ALICE_PASSWORD),
    });
    await right.body?.cancel();
    assert.equal(right.status, 429, "a stolen token cannot keep guessing");
    const stored = await users.getUser(t.deps.kv, id);
    assert.equal(await verifyPassword(ALICE_PASSWORD, stored.passwordHash), true, "nothing was changed");
  } finally {
    await t.close();
  }
});
