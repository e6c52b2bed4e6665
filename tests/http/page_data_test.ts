/**
 * HTTP tests of page data: the settings screens and the share pages carry their data in their island's props
 * (rendered on the server), never a password link's bypass token, and leave to the island what it must ask for.
 */
import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import type { TestApp } from "../_helpers.ts";
import { parse } from "../../framework/serialize.ts";
import { shares } from "../../lib/storage/mod.ts";
import type { Share } from "../../lib/types.ts";

/** The props of island `name` in a page (framework/serialize.ts format). */
async function propsOf(
  t: TestApp,
  path: string,
  name: string,
  as?: string,
): Promise<Record<string, unknown>> {
  const res = await t.request(path, { headers: as ? { Cookie: `auth=${t.tokens[as]}` } : {} });
  assert.equal(res.status, 200, path);
  assert.match(res.headers.get("Content-Type")!, /^text\/html/, path);
  const html = await res.text();
  const json = html.match(new RegExp(`data-island-props="${name}">(.*?)</script>`))?.[1];
  assert.ok(json, `${path}: island ${name}`);
  return parse(json) as Record<string, unknown>;
}

async function share(t: TestApp, path: string, body: Record<string, unknown> = {}): Promise<Share> {
  const res = await t.request(`/api/share${path}`, {
    as: "admin",
    method: "POST",
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, path);
  return await res.json() as Share;
}

Deno.test("page data: settings screens carry what their API answers", async () => {
  const t = await testApp({ users: [{ username: "bob", perm: { share: true, download: true } }] });
  try {
    const global = await propsOf(t, "/settings/global", "SettingsGlobal", "admin");
    const settings = global.settings as { signup: boolean; exec: { mode: string } | string };
    assert.equal(typeof settings.signup, "boolean");
    assert.ok(settings.exec, "how commands run comes along");
    const list = await propsOf(t, "/settings/users", "SettingsUsers", "admin");
    assert.deepEqual((list.users as { username: string }[]).map((u) => u.username), ["admin", "bob"]);
    const bob = await propsOf(t, `/settings/users/${t.users.bob.id}`, "SettingsUser", "admin");
    assert.equal((bob.user as { username: string }).username, "bob");
    assert.ok(!JSON.stringify(bob).includes("$2"), "no password hash");
    const fresh = await propsOf(t, "/settings/users/new", "SettingsUser", "admin");
    assert.equal(typeof (fresh.defaults as { createUserDir: boolean }).createUserDir, "boolean");
    // An unknown user: the form asks the API itself and shows its 404.
    for (const id of ["999", "abc", "0"]) {
      const gone = await propsOf(t, `/settings/users/${id}`, "SettingsUser", "admin");
      assert.equal(gone.user, undefined, id);
    }
  } finally {
    await t.close();
  }
});

Deno.test("page data: the share management page lists the user's links, all with owners for admins", async () => {
  const t = await testApp({
    users: [{ username: "bob", perm: { share: true, download: true } }, { username: "eve", perm: {} }],
  });
  try {
    await Deno.writeTextFile(`${t.root}/a.txt`, "a");
    const link = await share(t, "/a.txt");
    const admin = await propsOf(t, "/settings/shares", "ShareManager", "admin");
    assert.deepEqual((admin.links as Share[]).map((l) => [l.hash, l.username]), [[link.hash, "admin"]]);
    const bob = await propsOf(t, "/settings/shares", "ShareManager", "bob");
    assert.deepEqual(bob.links, [], "only their own links");
    // Without the share permission the island asks the API, which refuses.
    const eve = await propsOf(t, "/settings/shares", "ShareManager", "eve");
    assert.equal(eve.links, null);
  } finally {
    await t.close();
  }
});

Deno.test("page data: the public share page brings the item, never a password link's data or token", async () => {
  const t = await testApp();
  try {
    await Deno.mkdir(`${t.root}/dir/sub`, { recursive: true });
    await Deno.writeTextFile(`${t.root}/dir/x.txt`, "x");
    await Deno.writeTextFile(`${t.root}/secret.txt`, "s");
    const open = await share(t, "/dir/");
    const page = await propsOf(t, `/share/${open.hash}`, "SharePage");
    const initial = page.initial as { isDir: boolean; items: { name: string }[] };
    assert.equal(initial.isDir, true);
    assert.deepEqual(initial.items.map((i) => i.name).sort(), ["sub", "x.txt"]);
    const inner = await propsOf(t, `/share/${open.hash}/sub/`, "SharePage");
    assert.match((inner.initial as { path: string }).path, /^\/sub\/?$/);

    const locked = await share(t, "/secret.txt", { password: "letmein" });
    const stored = await shares.findShare(t.deps.kv, locked.hash, Date.now());
    assert.ok(stored?.token);
    const res = await t.request(`/share/${locked.hash}`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(!html.includes(stored.token), "no bypass token in the page");
    assert.ok(!html.includes("secret.txt"), "nothing of the shared item");
    const lockedProps = await propsOf(t, `/share/${locked.hash}`, "SharePage");
    assert.equal(lockedProps.initial, null, "the island asks for the password");

    const drop = await share(t, "/dir/", { kind: "drop", maxFiles: 3 });
    const dropProps = await propsOf(t, `/share/${drop.hash}`, "SharePage");
    const info = (dropProps.initial as { drop: { maxFiles: number; remaining: number } }).drop;
    assert.deepEqual([info.maxFiles, info.remaining], [3, 3]);
    assert.ok(!JSON.stringify(dropProps).includes("x.txt"), "a drop link's contents stay hidden");

    // (Paths with dot segments are redirected to their clean form before any route.)
    for (const hash of ["nope", "a%00b", "%E2%80%AE", `${open.hash}x`]) {
      const gone = await propsOf(t, `/share/${hash}`, "SharePage");
      assert.equal(gone.initial, null, hash);
    }
    const missing = await propsOf(t, `/share/${open.hash}/nope/deeper`, "SharePage");
    assert.equal(missing.initial, null, "a missing sub-folder is the island's to show");
    const outside = await propsOf(t, `/share/${open.hash}/..%2f..%2fsecret.txt`, "SharePage");
    assert.equal(outside.initial, null, "no way out of the shared folder");
  } finally {
    await t.close();
  }
});

Deno.test("page data: the profile, trash and audit pages carry what their API answers", async () => {
  const t = await testApp({ users: [{ username: "bob", perm: { create: true, delete: true } }] });
  const api = async (path: string, as: string) => {
    const res = await t.request(path, { as });
    assert.equal(res.status, 200, path);
    return await res.json();
  };
  try {
    await Deno.writeTextFile(`${t.root}/a.txt`, "a");
    const deleted = await t.request("/api/resources/a.txt", { as: "bob", method: "DELETE" });
    assert.equal(deleted.status, 204);
    const created = await t.request("/api/apppasswords", {
      as: "bob",
      method: "POST",
      body: JSON.stringify({ name: "phone", current_password: TEST_PASSWORD }),
    });
    assert.equal(created.status, 201);

    const profile = await propsOf(t, "/settings/profile", "SettingsProfile", "bob");
    assert.deepEqual(profile.twoFactor, await api("/api/twofa", "bob"));
    const appPasswords = await api("/api/apppasswords", "bob");
    assert.equal(appPasswords.length, 1);
    assert.deepEqual(profile.appPasswords, appPasswords);
    // The user editor shows an admin the same list (GET /api/users/<id>/apppasswords).
    const editor = await propsOf(t, `/settings/users/${t.users.bob.id}`, "SettingsUser", "admin");
    assert.deepEqual(editor.appPasswords, await api(`/api/users/${t.users.bob.id}/apppasswords`, "admin"));
    assert.deepEqual(editor.appPasswords, appPasswords);

    const trash = await propsOf(t, "/settings/trash", "SettingsTrash", "bob");
    const items = await api("/api/trash", "bob");
    assert.deepEqual(items.map((i: { name: string }) => i.name), ["a.txt"]);
    assert.deepEqual(trash.items, items);
    const adminTrash = await propsOf(t, "/settings/trash", "SettingsTrash", "admin");
    assert.deepEqual(adminTrash.items, [], "each user sees their own trash");

    const audit = await propsOf(t, "/settings/audit", "SettingsAudit", "admin");
    const first = await api("/api/audit?limit=100", "admin");
    assert.ok(first.entries.some((e: { action: string }) => e.action === "file.delete"));
    assert.deepEqual(audit.first, first);
  } finally {
    await t.close();
  }
});

Deno.test("page data: with proxy authentication the profile page has no account cards to fill", async () => {
  const t = await testApp({ config: { authMethod: "proxy" } });
  try {
    const profile = await propsOf(t, "/settings/profile", "SettingsProfile", "admin");
    assert.deepEqual(profile, { twoFactor: null, appPasswords: null });
    const editor = await propsOf(t, "/settings/users/1", "SettingsUser", "admin");
    assert.equal(editor.appPasswords, null);
  } finally {
    await t.close();
  }
});
