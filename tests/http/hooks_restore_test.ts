/**
 * The `restore` event hooks (docs/commands.md): restoring from the trash runs before_restore and after_restore
 * with the restored path, and a failing before hook leaves the item in the trash and the origin untouched.
 */
import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import type { TestApp } from "../_helpers.ts";
import type { TrashItem } from "../../lib/types.ts";

/** Appends "TRIGGER|FILE|DESTINATION|USERNAME" from the exported variables to $HOME/.hooks.log. */
const RECORD =
  `sh -c 'printf "%s|%s|%s|%s\\n" "$TRIGGER" "$FILE" "$DESTINATION" "$USERNAME" >> "$HOME/.hooks.log"'`;

async function restoreApp(commands: Record<string, string[]>): Promise<{ t: TestApp; scope: string }> {
  const t = await testApp({
    config: { enableExec: true, trashDays: 30 },
    settings: { commands },
    users: [{
      username: "alice",
      perm: { create: true, modify: true, delete: true, rename: true },
      scope: "/alice",
    }],
  });
  const scope = await Deno.realPath(`${t.root}/alice`);
  return { t, scope };
}

async function trashOne(t: TestApp, vpath: string): Promise<TrashItem> {
  const del = await t.request(`/api/resources${vpath}`, { method: "DELETE", as: "alice" });
  assert.equal(del.status, 204);
  const items: TrashItem[] = await (await t.request("/api/trash", { as: "alice" })).json();
  const item = items.find((i) => i.path === vpath);
  assert.ok(item, `${vpath} is in the trash`);
  return item;
}

async function records(scope: string): Promise<string[][]> {
  const text = await Deno.readTextFile(`${scope}/.hooks.log`).catch(() => "");
  return text.split("\n").filter(Boolean).map((l) => l.split("|"));
}

Deno.test("hooks: restoring from the trash runs before_restore and after_restore with the restored path", async () => {
  const { t, scope } = await restoreApp({ before_restore: [RECORD], after_restore: [RECORD] });
  try {
    await Deno.mkdir(`${scope}/docs`);
    await Deno.writeTextFile(`${scope}/docs/a.txt`, "old");
    const item = await trashOne(t, "/docs/a.txt");
    let res = await t.request(`/api/trash/${item.id}`, { method: "POST", as: "alice" });
    assert.equal(res.status, 200);
    await res.body?.cancel();
    // Keep both: the hook sees the free name the item came back under.
    const again = await trashOne(t, "/docs/a.txt");
    await Deno.writeTextFile(`${scope}/docs/a.txt`, "new");
    res = await t.request(`/api/trash/${again.id}?rename=true`, { method: "POST", as: "alice" });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { path: "/docs/a(1).txt" });
    assert.deepEqual(await records(scope), [
      ["before_restore", `${scope}/docs/a.txt`, scope, "alice"],
      ["after_restore", `${scope}/docs/a.txt`, scope, "alice"],
      ["before_restore", `${scope}/docs/a(1).txt`, scope, "alice"],
      ["after_restore", `${scope}/docs/a(1).txt`, scope, "alice"],
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("hooks: a failing before_restore keeps the item in the trash and what stands at the origin", async () => {
  const { t, scope } = await restoreApp({ before_restore: ["false"], after_restore: [RECORD] });
  try {
    await Deno.writeTextFile(`${scope}/a.txt`, "old");
    const item = await trashOne(t, "/a.txt");
    await Deno.writeTextFile(`${scope}/a.txt`, "new");
    const res = await t.request(`/api/trash/${item.id}?override=true`, { method: "POST", as: "alice" });
    assert.equal(res.status, 500);
    assert.match(await res.text(), /before_restore hook failed/);
    assert.equal(await Deno.readTextFile(`${scope}/a.txt`), "new");
    const items: TrashItem[] = await (await t.request("/api/trash", { as: "alice" })).json();
    assert.deepEqual(items.map((i) => i.id), [item.id]);
    assert.deepEqual(await records(scope), []);
  } finally {
    await t.close();
  }
});
