import assert from "node:assert/strict";
import { TEST_PASSWORD, type TestApp, testApp } from "../_helpers.ts";

const PERM = { create: true, modify: true, delete: true, download: true };

/** Alice has a 100-byte quota on /alice, already holding 60 bytes; bob has none. */
async function quotaApp(): Promise<TestApp> {
  const t = await testApp({
    users: [
      { username: "alice", scope: "/alice", perm: PERM, quota: 100 },
      { username: "bob", scope: "/bob", perm: PERM },
    ],
  });
  await Deno.writeTextFile(`${t.root}/alice/a.txt`, "a".repeat(60));
  return t;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

async function expect507(res: Response): Promise<void> {
  assert.equal(res.status, 507);
  assert.match(res.headers.get("Content-Type") ?? "", /text\/plain/);
  assert.match(await res.text(), /^507 Insufficient Storage \(Cannot write.*quota/);
}

Deno.test("POST uploads fill the quota exactly, one byte over is 507 and leaves nothing", async () => {
  const t = await quotaApp();
  try {
    const over = await t.request("/api/resources/b.txt", {
      method: "POST",
      as: "alice",
      body: "b".repeat(41),
    });
    await expect507(over);
    assert.equal(await exists(`${t.root}/alice/b.txt`), false);
    const full = await t.request("/api/resources/b.txt", {
      method: "POST",
      as: "alice",
      body: "b".repeat(40),
    });
    assert.equal(full.status, 200);
    await expect507(await t.request("/api/resources/c.txt", { method: "POST", as: "alice", body: "c" }));
    // An empty file and a folder add nothing.
    assert.equal(
      (await t.request("/api/resources/d.txt", { method: "POST", as: "alice", body: "" })).status,
      200,
    );
    assert.equal((await t.request("/api/resources/dir/", { method: "POST", as: "alice" })).status, 200);
    // Bob has no quota.
    const big = await t.request("/api/resources/big.bin", {
      method: "POST",
      as: "bob",
      body: "x".repeat(1000),
    });
    assert.equal(big.status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("overriding counts only the difference; PUT saves are held to the quota", async () => {
  const t = await quotaApp();
  try {
    const replace = await t.request("/api/resources/a.txt?override=true", {
      method: "POST",
      as: "alice",
      body: "a".repeat(100),
    });
    assert.equal(replace.status, 200);
    await expect507(
      await t.request("/api/resources/a.txt", { method: "PUT", as: "alice", body: "a".repeat(101) }),
    );
    assert.equal((await Deno.readTextFile(`${t.root}/alice/a.txt`)).length, 100);
    assert.equal(
      (await t.request("/api/resources/a.txt", { method: "PUT", as: "alice", body: "z" })).status,
      200,
    );
    assert.equal(await Deno.readTextFile(`${t.root}/alice/a.txt`), "z");
  } finally {
    await t.close();
  }
});

Deno.test("copies are held to the quota; the trash counts until emptied", async () => {
  const t = await quotaApp();
  try {
    await Deno.writeTextFile(`${t.root}/alice/s.txt`, "s".repeat(20));
    const copy = (to: string) =>
      t.request(`/api/resources/s.txt?action=copy&destination=${encodeURIComponent(to)}`, {
        method: "PATCH",
        as: "alice",
      });
    assert.equal((await copy("/s2.txt")).status, 200);
    await expect507(await copy("/s3.txt"));
    assert.equal(await exists(`${t.root}/alice/s3.txt`), false);
    // Deleting moves to the trash: still counted.
    assert.equal((await t.request("/api/resources/s2.txt", { method: "DELETE", as: "alice" })).status, 204);
    await expect507(await copy("/s3.txt"));
    assert.equal((await t.request("/api/trash", { method: "DELETE", as: "alice" })).status, 204);
    assert.equal((await copy("/s3.txt")).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("tus creation checks the declared length against the quota", async () => {
  const t = await quotaApp();
  try {
    const create = (name: string, length: number) =>
      t.request(`/api/tus/${name}?override=false`, {
        method: "POST",
        as: "alice",
        headers: { "Upload-Length": String(length) },
      });
    await expect507(await create("x.bin", 41));
    assert.equal((await create("x.bin", 40)).status, 201);
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/usage reports the quota and the usage (scope and trash) for users with a quota", async () => {
  const t = await quotaApp();
  try {
    const usage = async (as: string) => {
      const res = await t.request("/api/usage/", { as });
      assert.equal(res.status, 200);
      return await res.json();
    };
    assert.deepEqual(await usage("alice"), { total: 100, used: 60 });
    await t.request("/api/resources/b.txt", { method: "POST", as: "alice", body: "bb" });
    assert.deepEqual(await usage("alice"), { total: 100, used: 62 });
    await t.request("/api/resources/b.txt", { method: "DELETE", as: "alice" });
    assert.deepEqual(await usage("alice"), { total: 100, used: 62 });
    const bob = await usage("bob");
    assert.ok(bob.total > 1000, "bob sees the disk");
  } finally {
    await t.close();
  }
});

Deno.test("the quota field: admins set it, users cannot, and a replace without it keeps it", async () => {
  const t = await quotaApp();
  try {
    const put = (as: string, which: string[], data: Record<string, unknown>) =>
      t.request(`/api/users/${t.users.alice.id}`, {
        method: "PUT",
        as,
        body: JSON.stringify({
          what: "user",
          which,
          current_password: TEST_PASSWORD,
          data: { id: t.users.alice.id, ...data },
        }),
      });
    const get = async () => await (await t.request(`/api/users/${t.users.alice.id}`, { as: "admin" })).json();
    assert.equal((await get()).quota, 100);
    assert.equal((await put("alice", ["quota"], { quota: 0 })).status, 403);
    for (const bad of [-1, 1.5, "100", 2 ** 60]) {
      assert.equal((await put("admin", ["quota"], { quota: bad })).status, 400, String(bad));
    }
    assert.equal((await put("admin", ["quota"], { quota: 500 })).status, 200);
    assert.equal((await get()).quota, 500);
    const { quota: _drop, ...withoutQuota } = await get();
    assert.equal((await put("admin", ["all"], withoutQuota)).status, 200);
    assert.equal((await get()).quota, 500);
  } finally {
    await t.close();
  }
});
