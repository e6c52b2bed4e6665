import assert from "node:assert/strict";
import { createUser, deleteUser, findUserByName, listUsers, mutateUser } from "./users.ts";
import { userFromDefaults } from "../users.ts";
import { defaultSettings } from "../settings.ts";

const make = (name: string) => userFromDefaults(defaultSettings(), name, "hash");

Deno.test("createUser() lets exactly one of many parallel writers claim a username (case-folded)", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const names = Array.from({ length: 20 }, (_, i) => (i % 2 ? "Alice" : "alice"));
    const results = await Promise.allSettled(names.map((n) => createUser(kv, make(n))));
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    assert.equal((await listUsers(kv)).length, 1);
  } finally {
    kv.close();
  }
});

Deno.test("createUser() gives distinct ids to parallel creations of different users", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const created = await Promise.all(Array.from({ length: 25 }, (_, i) => createUser(kv, make(`u${i}`))));
    assert.equal(new Set(created.map((u) => u.id)).size, 25);
    assert.deepEqual((await listUsers(kv)).map((u) => u.id), Array.from({ length: 25 }, (_, i) => i + 1));
  } finally {
    kv.close();
  }
});

Deno.test("mutateUser() never loses an update under parallel read-modify-write", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const u = await createUser(kv, make("counter"));
    await Promise.all(
      Array.from(
        { length: 40 },
        () => mutateUser(kv, u.id, (x) => ({ ...x, sessionEpoch: x.sessionEpoch + 1 })),
      ),
    );
    const after = await findUserByName(kv, "counter");
    assert.equal(after?.sessionEpoch, 40);
  } finally {
    kv.close();
  }
});

Deno.test("mutateUser() moves the name index on rename and refuses a taken name", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const a = await createUser(kv, make("a"));
    await createUser(kv, make("b"));
    await mutateUser(kv, a.id, (x) => ({ ...x, username: "c" }));
    assert.equal(await findUserByName(kv, "a"), null);
    assert.equal((await findUserByName(kv, "c"))?.id, a.id);
    await assert.rejects(() => mutateUser(kv, a.id, (x) => ({ ...x, username: "B" })), /username taken/);
    await deleteUser(kv, a.id);
    assert.equal(await findUserByName(kv, "c"), null);
  } finally {
    kv.close();
  }
});

Deno.test("findUserByName() is exact by default: the folded index does not make logins case-insensitive", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await createUser(kv, make("Admin"));
    assert.equal(await findUserByName(kv, "admin"), null);
    assert.equal((await findUserByName(kv, "admin", { exact: false }))?.username, "Admin");
  } finally {
    kv.close();
  }
});

Deno.test("createUser() refuses a derived scope owned by another user", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const results = await Promise.allSettled([
      createUser(kv, make("teamone-x"), { derivedScope: "/users/teamone-x" }),
      createUser(kv, make("teamone/x"), { derivedScope: "/users/teamone-x" }),
    ]);
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    assert.equal((await listUsers(kv)).length, 1);
  } finally {
    kv.close();
  }
});
