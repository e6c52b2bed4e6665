/**
 * Who may remove WebDAV locks and what one user can hold (docs/api.md#webdav): an admin and the owner of the
 * scope a lock lies in may UNLOCK it, deleting a user drops their locks, timeouts stop at an hour, owners are
 * small.
 */
import assert from "node:assert/strict";
import { TEST_PASSWORD, type TestApp, testApp } from "../_helpers.ts";
import { basic } from "./_dav.ts";

const WRITER = { create: true, rename: true, modify: true, delete: true, download: true };

function lockInfo(owner = "t", scope = "exclusive"): string {
  return `<?xml version="1.0"?><lockinfo xmlns="DAV:"><lockscope><${scope}/></lockscope>` +
    `<locktype><write/></locktype><owner>${owner}</owner></lockinfo>`;
}

/** alice's home is /users/alice; bob (no admin) sees the whole root; admin too. */
async function lockApp(): Promise<TestApp> {
  const t = await testApp({
    config: { webdav: true, loginRateLimit: 1000 },
    users: [
      { username: "alice", perm: WRITER, scope: "/users/alice" },
      { username: "bob", perm: WRITER, scope: "/" },
      { username: "carol", perm: WRITER, scope: "/users/carol" },
    ],
  });
  for (const name of ["f.txt", "g.txt", "h.txt"]) {
    await Deno.mkdir(`${t.root}/users/alice`, { recursive: true });
    await Deno.writeTextFile(`${t.root}/users/alice/${name}`, "x");
  }
  await Deno.mkdir(`${t.root}/users/carol`, { recursive: true });
  return t;
}

async function dav(
  t: TestApp,
  as: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("Authorization", basic(as, TEST_PASSWORD));
  return await t.app.request(`http://localhost/dav${path}`, { method, headers, body: init.body });
}

async function status(res: Promise<Response>): Promise<number> {
  const r = await res;
  await r.body?.cancel();
  return r.status;
}

async function lock(t: TestApp, as: string, path: string, headers: Record<string, string> = {}) {
  const res = await dav(t, as, "LOCK", path, { body: lockInfo(), headers });
  const body = await res.text();
  assert.equal(res.status, 200, body);
  return { token: res.headers.get("Lock-Token")!, body };
}

Deno.test("WebDAV: an admin and the owner of the scope may UNLOCK another user's lock", async () => {
  const t = await lockApp();
  try {
    // Bob, whose scope holds every home, locks a file in Alice's.
    const bobs = await lock(t, "bob", "/users/alice/f.txt");
    assert.equal(await status(dav(t, "alice", "PUT", "/f.txt", { body: "mine" })), 423);
    // Carol's scope does not hold the file: her /f.txt is another resource, not locked.
    const carol = dav(t, "carol", "UNLOCK", "/f.txt", { headers: { "Lock-Token": bobs.token } });
    assert.equal(await status(carol), 409);
    assert.equal(
      await status(dav(t, "alice", "UNLOCK", "/f.txt", { headers: { "Lock-Token": bobs.token } })),
      204,
    );
    assert.equal(await status(dav(t, "alice", "PUT", "/f.txt", { body: "mine" })), 204);
    // Alice's lock in her own home: Bob's wider scope does not make it his to remove; an admin's does.
    const alices = await lock(t, "alice", "/g.txt");
    const unlockAs = (as: string) =>
      status(dav(t, as, "UNLOCK", "/users/alice/g.txt", { headers: { "Lock-Token": alices.token } }));
    assert.equal(await unlockAs("bob"), 403);
    assert.equal(await status(dav(t, "bob", "PUT", "/users/alice/g.txt", { body: "bob's" })), 423);
    assert.equal(await unlockAs("admin"), 204);
    assert.equal(await status(dav(t, "bob", "PUT", "/users/alice/g.txt", { body: "bob's" })), 204);
    // A token that is not a lock on the resource stays 409, whoever asks.
    assert.equal(await unlockAs("admin"), 409);
  } finally {
    await t.close();
  }
});

Deno.test("WebDAV: deleting a user drops their locks", async () => {
  const t = await lockApp();
  try {
    await lock(t, "bob", "/users/alice/f.txt");
    await lock(t, "bob", "/users/alice/h.txt");
    assert.equal(await status(dav(t, "alice", "PUT", "/f.txt", { body: "mine" })), 423);
    const del = await t.request(`/api/users/${t.users.bob.id}`, {
      method: "DELETE",
      as: "admin",
      body: JSON.stringify({ current_password: TEST_PASSWORD }),
    });
    assert.equal(del.status, 200);
    await del.body?.cancel();
    assert.equal(await status(dav(t, "alice", "PUT", "/f.txt", { body: "mine" })), 204);
    assert.equal(await status(dav(t, "alice", "DELETE", "/h.txt")), 204);
    const found = await dav(t, "alice", "PROPFIND", "/", { headers: { Depth: "1" } });
    assert.doesNotMatch(await found.text(), /opaquelocktoken/);
  } finally {
    await t.close();
  }
});

Deno.test("WebDAV: lock timeouts stop at an hour, refreshes too; the owner element is at most 1 KiB", async () => {
  const t = await lockApp();
  try {
    for (const timeout of ["Second-604800", "Infinite", "Infinite, Second-86400"]) {
      const res = await dav(t, "alice", "LOCK", "/f.txt", {
        body: lockInfo(),
        headers: { Timeout: timeout },
      });
      const body = await res.text();
      assert.equal(res.status, 200, body);
      assert.match(body, /<timeout>Second-3600<\/timeout>/, timeout);
      const token = res.headers.get("Lock-Token")!;
      const refresh = await dav(t, "alice", "LOCK", "/f.txt", {
        headers: { If: `(${token})`, Timeout: "Second-999999" },
      });
      assert.equal(refresh.status, 200);
      assert.match(await refresh.text(), /<timeout>Second-3600<\/timeout>/);
      assert.equal(
        await status(dav(t, "alice", "UNLOCK", "/f.txt", { headers: { "Lock-Token": token } })),
        204,
      );
    }
    const big = await dav(t, "alice", "LOCK", "/g.txt", { body: lockInfo("é".repeat(513)) });
    assert.equal(big.status, 400);
    assert.match(await big.text(), /owner longer than 1024 bytes/);
    assert.equal(await status(dav(t, "alice", "LOCK", "/g.txt", { body: lockInfo("é".repeat(512)) })), 200);
  } finally {
    await t.close();
  }
});
