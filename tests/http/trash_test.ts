import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import type { TrashItem } from "../../lib/types.ts";

const users = [
  { username: "alice", perm: { create: true, delete: true, modify: true, download: true } },
  { username: "bob", perm: { create: true, delete: true, download: true } },
  { username: "viewer", perm: { download: true } },
];

async function list(t: Awaited<ReturnType<typeof testApp>>, as: string): Promise<TrashItem[]> {
  const res = await t.request("/api/trash", { as });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("Content-Type") ?? "", /application\/json/);
  return await res.json();
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("DELETE /api/resources answers 204 as before and the item lands in the trash", async () => {
  const t = await testApp({ users });
  try {
    await Deno.mkdir(`${t.root}/docs`);
    await Deno.writeTextFile(`${t.root}/docs/a.txt`, "hello");
    const res = await t.request("/api/resources/docs", { method: "DELETE", as: "alice" });
    assert.equal(res.status, 204);
    assert.equal(await exists(`${t.root}/docs`), false);
    const items = await list(t, "alice");
    assert.deepEqual(items.map((i) => [i.path, i.name, i.isDir, i.size]), [["/docs", "docs", true, 5]]);
    // Nobody else sees it, not even an admin.
    assert.deepEqual(await list(t, "bob"), []);
    assert.deepEqual(await list(t, "admin"), []);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/trash/{id} restores; an occupied origin is 409 until replace or keep both", async () => {
  const t = await testApp({ users });
  try {
    await Deno.writeTextFile(`${t.root}/a.txt`, "old");
    assert.equal((await t.request("/api/resources/a.txt", { method: "DELETE", as: "alice" })).status, 204);
    const [item] = await list(t, "alice");
    await Deno.writeTextFile(`${t.root}/a.txt`, "new");
    const conflict = await t.request(`/api/trash/${item.id}`, { method: "POST", as: "alice" });
    assert.equal(conflict.status, 409);
    assert.equal(await conflict.text(), "409 Conflict\n");
    // Another user cannot restore it (not found for them).
    assert.equal(
      (await t.request(`/api/trash/${item.id}?rename=true`, { method: "POST", as: "bob" })).status,
      404,
    );
    const kept = await t.request(`/api/trash/${item.id}?rename=true`, { method: "POST", as: "alice" });
    assert.equal(kept.status, 200);
    assert.deepEqual(await kept.json(), { path: "/a(1).txt" });
    assert.equal(await Deno.readTextFile(`${t.root}/a(1).txt`), "old");
    assert.deepEqual(await list(t, "alice"), []);
    // Replace: the file that stood there goes to the trash.
    await t.request("/api/resources/a(1).txt", { method: "DELETE", as: "alice" });
    await Deno.rename(`${t.root}/a.txt`, `${t.root}/a(1).txt`);
    await Deno.writeTextFile(`${t.root}/a.txt`, "newest");
    await t.request("/api/resources/a.txt", { method: "DELETE", as: "alice" });
    const items = await list(t, "alice");
    const first = items.find((i) => i.path === "/a(1).txt")!;
    await Deno.writeTextFile(`${t.root}/a(1).txt`, "in the way");
    const replaced = await t.request(`/api/trash/${first.id}?override=true`, { method: "POST", as: "alice" });
    assert.equal(replaced.status, 200);
    assert.equal(await Deno.readTextFile(`${t.root}/a(1).txt`), "old");
    assert.equal((await list(t, "alice")).length, 2);
  } finally {
    await t.close();
  }
});

Deno.test("DELETE ?permanent=true skips the trash, and so does --trash-days 0", async () => {
  const t = await testApp({ users });
  const zero = await testApp({ users, config: { trashDays: 0 } });
  try {
    for (const app of [t, zero]) {
      await Deno.writeTextFile(`${app.root}/a.txt`, "x");
      const path = app === t ? "/api/resources/a.txt?permanent=true" : "/api/resources/a.txt";
      assert.equal((await app.request(path, { method: "DELETE", as: "alice" })).status, 204);
      assert.equal(await exists(`${app.root}/a.txt`), false);
      assert.deepEqual(await list(app, "alice"), []);
    }
  } finally {
    await t.close();
    await zero.close();
  }
});

Deno.test("the trash API: anonymous 401, empty and delete need the delete permission", async () => {
  const t = await testApp({ users });
  try {
    await Deno.writeTextFile(`${t.root}/a.txt`, "x");
    await t.request("/api/resources/a.txt", { method: "DELETE", as: "alice" });
    const [item] = await list(t, "alice");
    assert.equal((await t.request("/api/trash")).status, 401);
    assert.equal((await t.request(`/api/trash/${item.id}`, { method: "POST" })).status, 401);
    assert.equal((await t.request("/api/trash", { method: "DELETE", as: "viewer" })).status, 403);
    assert.equal((await t.request(`/api/trash/${item.id}`, { method: "POST", as: "viewer" })).status, 403);
    assert.equal((await t.request(`/api/trash/${item.id}`, { method: "DELETE", as: "bob" })).status, 404);
    assert.equal((await t.request(`/api/trash/${item.id}`, { method: "DELETE", as: "alice" })).status, 204);
    assert.deepEqual(await list(t, "alice"), []);
    await Deno.writeTextFile(`${t.root}/b.txt`, "x");
    await t.request("/api/resources/b.txt", { method: "DELETE", as: "alice" });
    assert.equal((await t.request("/api/trash", { method: "DELETE", as: "alice" })).status, 204);
    assert.deepEqual(await list(t, "alice"), []);
  } finally {
    await t.close();
  }
});

Deno.test("hostile trash ids are 404, never a 500", async () => {
  const t = await testApp({ users });
  try {
    for (const id of ["..", "%2e%2e", "..%5C..", "%2Fetc%2Fpasswd", "x".repeat(5000), crypto.randomUUID()]) {
      for (const method of ["POST", "DELETE"]) {
        const res = await t.request(`/api/trash/${id}`, { method, as: "alice" });
        assert.equal(res.status, 404, `${method} ${id.slice(0, 20)}`);
        await res.body?.cancel();
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("a deleted item restores into a scope, and items of a path a rule now denies are hidden", async () => {
  const t = await testApp({
    users: [{ username: "carol", scope: "/carol", perm: { create: true, delete: true, download: true } }],
  });
  try {
    await Deno.mkdir(`${t.root}/carol/secret`, { recursive: true });
    await Deno.writeTextFile(`${t.root}/carol/secret/s.txt`, "s");
    await Deno.writeTextFile(`${t.root}/carol/c.txt`, "c");
    await t.request("/api/resources/secret", { method: "DELETE", as: "carol" });
    await t.request("/api/resources/c.txt", { method: "DELETE", as: "carol" });
    const items = await list(t, "carol");
    assert.deepEqual(items.map((i) => i.path).sort(), ["/c.txt", "/secret"]);
    const c = items.find((i) => i.path === "/c.txt")!;
    assert.equal((await t.request(`/api/trash/${c.id}`, { method: "POST", as: "carol" })).status, 200);
    assert.equal(await Deno.readTextFile(`${t.root}/carol/c.txt`), "c");
    await t.deps.store.saveSettings({
      ...(await t.deps.store.findSettings())!,
      rules: [{ regex: false, allow: false, path: "/secret", regexp: null }],
    });
    assert.deepEqual(await list(t, "carol"), []);
  } finally {
    await t.close();
  }
});
