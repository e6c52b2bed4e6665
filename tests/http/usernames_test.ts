/** Usernames through signup, admin create and rename: NFC, and no invisible characters or surrounding whitespace. */
import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import type { TestApp } from "../_helpers.ts";
import { users } from "../../lib/storage/mod.ts";

/** Names every path must refuse, with what the message names. */
const REFUSED: [string, string, RegExp][] = [
  ["leading space", " admin", /start or end with whitespace/],
  ["trailing space", "admin ", /start or end with whitespace/],
  ["trailing newline", "admin\n", /start or end with whitespace/],
  ["zero-width space", "ad\u200Bmin", /invisible or control character \(U\+200B\)/],
  ["left-to-right mark", "\u200Eadmin", /U\+200E/],
  ["byte order mark", "ad\uFEFFmin", /U\+FEFF/],
  ["right-to-left override", "ad\u202Emin", /U\+202E/],
  ["NUL", "ad\u0000min", /U\+0000/],
  ["escape", "ad\u001Bmin", /U\+001B/],
  ["Hangul filler", "\u3164", /U\+3164/],
  ["no-break space", "ad\u00A0min", /U\+00A0/],
  ["tag character", "admin\u{E0020}", /U\+E0020/],
  ["lone surrogate", "ad\uDC00min", /U\+DC00/],
  ["300 letters", "a".repeat(300), /too long/],
];

type Attempt = (t: TestApp, name: string) => Promise<Response>;

const ATTEMPTS: Record<string, Attempt> = {
  signup: (t, name) =>
    t.request("/api/signup", {
      method: "POST",
      body: JSON.stringify({ username: name, password: "a-long-password-1" }),
    }),
  "admin create": (t, name) =>
    t.request("/api/users", {
      method: "POST",
      as: "admin",
      body: JSON.stringify({
        what: "user",
        which: [],
        current_password: TEST_PASSWORD,
        data: { id: 0, username: name, password: "a-long-password-1" },
      }),
    }),
  rename: (t, name) =>
    t.request(`/api/users/${t.users.bob.id}`, {
      method: "PUT",
      as: "admin",
      body: JSON.stringify({
        what: "user",
        which: ["username"],
        current_password: TEST_PASSWORD,
        data: { id: t.users.bob.id, username: name },
      }),
    }),
};

for (const [via, attempt] of Object.entries(ATTEMPTS)) {
  Deno.test(`${via}: usernames with invisible characters or surrounding whitespace are a 400 that says why`, async () => {
    const t = await testApp({ users: [{ username: "bob" }], settings: { signup: true } });
    try {
      for (const [what, name, message] of REFUSED) {
        const res = await attempt(t, name);
        assert.equal(res.status, 400, what);
        assert.match(res.headers.get("Content-Type") ?? "", /^text\/plain/);
        assert.match(await res.text(), message, what);
      }
      assert.deepEqual((await users.listUsers(t.deps.kv)).map((u) => u.username), ["admin", "bob"]);
    } finally {
      await t.close();
    }
  });

  Deno.test(`${via}: a decomposed name is stored in NFC and logs in either way`, async () => {
    const t = await testApp({ users: [{ username: "bob" }], settings: { signup: true } });
    try {
      const res = await attempt(t, "Zoe\u0301 Martin");
      assert.ok(res.status === 200 || res.status === 201, String(res.status));
      const stored = await users.findUserByName(t.deps.kv, "Zo\u00E9 Martin");
      assert.equal(stored?.username, "Zo\u00E9 Martin");
      if (via !== "rename") {
        for (const username of ["Zoe\u0301 Martin", "Zo\u00E9 Martin"]) {
          const login = await t.request("/api/login", {
            method: "POST",
            body: JSON.stringify({ username, password: "a-long-password-1" }),
          });
          assert.equal(login.status, 200, JSON.stringify(username));
        }
      }
    } finally {
      await t.close();
    }
  });
}

Deno.test("an admin saving a whole record keeps an imported name that today's rules would refuse", async () => {
  const t = await testApp({ users: [{ username: "bob" }] });
  try {
    const id = t.users.bob.id;
    await users.mutateUser(t.deps.kv, id, (u) => ({ ...u, username: "bob\u200B" }));
    const res = await t.request(`/api/users/${id}`, {
      method: "PUT",
      as: "admin",
      body: JSON.stringify({
        what: "user",
        which: ["all"],
        current_password: TEST_PASSWORD,
        data: { id, username: "bob\u200B", scope: "/", perm: { download: true } },
      }),
    });
    assert.equal(res.status, 200);
    assert.equal((await users.getUser(t.deps.kv, id)).perm.download, true);
  } finally {
    await t.close();
  }
});
