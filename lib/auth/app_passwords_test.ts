import assert from "node:assert/strict";
import {
  createAppPassword,
  deleteAllAppPasswords,
  deleteAppPassword,
  listAppPasswords,
  MAX_APP_PASSWORDS,
  verifyAppPassword,
} from "./app_passwords.ts";
import { keys } from "../storage/keys.ts";

const T0 = 1_700_000_000_000;

Deno.test("an app password is shown once, stored hashed, listed and verified", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const made = await createAppPassword(kv, 3, { name: " WebDAV laptop ", now: T0 });
    assert.match(made.password, /^fbap_[A-Za-z0-9_-]{43}$/);
    assert.equal(made.name, "WebDAV laptop");
    const stored = await kv.get(keys.appPassword(3, made.id));
    assert.ok(!JSON.stringify(stored.value).includes(made.password.slice(5)));
    assert.deepEqual(await listAppPasswords(kv, 3), [
      { id: made.id, name: "WebDAV laptop", created: new Date(T0).toISOString(), lastUsed: null },
    ]);
    const hit = await verifyAppPassword(kv, { id: 3 }, made.password, { now: T0 + 5000 });
    assert.equal(hit?.id, made.id);
    assert.equal((await listAppPasswords(kv, 3))[0].lastUsed, new Date(T0 + 5000).toISOString());
  } finally {
    kv.close();
  }
});

Deno.test("verifyAppPassword() refuses other users' passwords, near misses and revoked ones", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const made = await createAppPassword(kv, 3, { name: "a", now: T0 });
    assert.equal(await verifyAppPassword(kv, { id: 4 }, made.password), null);
    for (
      const bad of ["", made.password.slice(0, -1), `${made.password}x`, made.password.slice(5), "fbap_"]
    ) {
      assert.equal(await verifyAppPassword(kv, { id: 3 }, bad), null, bad);
    }
    await deleteAppPassword(kv, 3, made.id);
    assert.equal(await verifyAppPassword(kv, { id: 3 }, made.password), null);
    await assert.rejects(deleteAppPassword(kv, 3, made.id), { status: 404 });
  } finally {
    kv.close();
  }
});

Deno.test("createAppPassword() refuses bad names and more than the limit", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    for (const name of ["", "   ", "x".repeat(101), "a\nb", "a\u0000"]) {
      await assert.rejects(
        createAppPassword(kv, 1, { name, now: T0 }),
        { status: 400 },
        JSON.stringify(name),
      );
    }
    for (let i = 0; i < MAX_APP_PASSWORDS; i++) {
      await createAppPassword(kv, 1, { name: `p${i}`, now: T0 + i });
    }
    await assert.rejects(createAppPassword(kv, 1, { name: "one more", now: T0 }), { status: 409 });
    await deleteAllAppPasswords(kv, 1);
    assert.deepEqual(await listAppPasswords(kv, 1), []);
  } finally {
    kv.close();
  }
});

Deno.test("deleteAppPassword() cannot revoke another user's password", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const made = await createAppPassword(kv, 3, { name: "a", now: T0 });
    await assert.rejects(deleteAppPassword(kv, 4, made.id), { status: 404 });
    assert.equal((await listAppPasswords(kv, 3)).length, 1);
  } finally {
    kv.close();
  }
});
