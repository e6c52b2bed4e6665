/**
 * Warm downloads answer from in-memory copies of sessions, users and verified tokens: a logout, a password change,
 * a permission change or a deleted user must still refuse the very next request, also while many requests of the
 * same token are in flight on real connections.
 */
import assert from "node:assert/strict";
import { TEST_PASSWORD } from "../_helpers.ts";
import { serveDav } from "./_dav.ts";

const PARALLEL = 32;

/** Statuses of `n` simultaneous downloads of /f.txt with `token`. */
async function burst(origin: string, token: string, n = PARALLEL): Promise<number[]> {
  return await Promise.all(Array.from({ length: n }, async () => {
    const res = await fetch(`${origin}/api/raw/f.txt`, { headers: { "X-Auth": token } });
    await res.body?.cancel();
    return res.status;
  }));
}

function userUpdate(id: number, which: string[], data: Record<string, unknown>): RequestInit {
  return {
    method: "PUT",
    body: JSON.stringify({ what: "user", which, current_password: TEST_PASSWORD, data: { id, ...data } }),
  };
}

Deno.test("revocations refuse the next downloads of a warm token, with requests in flight", async () => {
  const srv = await serveDav({
    users: [
      { username: "ann", perm: { download: true } },
      { username: "ben", perm: { download: true } },
      { username: "cat", perm: { download: true } },
      { username: "dan", perm: { download: true } },
    ],
  });
  const { t, origin } = srv;
  try {
    await Deno.writeTextFile(`${t.root}/f.txt`, "data");
    const changes: [string, () => Promise<Response>][] = [
      ["logout", () => t.request("/api/logout", { method: "POST", as: "ann" })],
      ["password change", () =>
        t.request(`/api/users/${t.users.ben.id}`, {
          as: "admin",
          ...userUpdate(t.users.ben.id, ["password"], { password: "another-long-password" }),
        })],
      ["permission change", () =>
        t.request(`/api/users/${t.users.cat.id}`, {
          as: "admin",
          ...userUpdate(t.users.cat.id, ["perm"], { perm: { download: true, create: true } }),
        })],
      ["deletion", () =>
        t.request(`/api/users/${t.users.dan.id}`, {
          method: "DELETE",
          as: "admin",
          body: JSON.stringify({ current_password: TEST_PASSWORD }),
        })],
    ];
    for (const [i, [label, change]] of changes.entries()) {
      const token = t.tokens[["ann", "ben", "cat", "dan"][i]];
      // Warm: the token, session and user are in the caches.
      assert.deepEqual(await burst(origin, token), Array(PARALLEL).fill(200), label);
      // Requests in flight while the change lands may go either way; none may fail otherwise.
      const during = burst(origin, token);
      const res = await change();
      assert.equal(res.status, 200, `${label}: ${await res.text()}`);
      assert.ok((await during).every((s) => s === 200 || s === 401), label);
      // Every request that starts after the change is refused.
      assert.deepEqual(await burst(origin, token), Array(PARALLEL).fill(401), label);
    }
  } finally {
    await srv.close();
  }
});
