import assert from "node:assert/strict";
import { sessions, shares, users } from "../storage/mod.ts";
import { defaultSettings } from "../settings.ts";
import { userFromDefaults } from "../users.ts";
import { BoltFormatError, FbDataError, importFilebrowser } from "./mod.ts";

const FIXTURES = new URL("../../tests/fixtures/filebrowser/", import.meta.url);
const fixture = (name: string) => Deno.readFile(new URL(name, FIXTURES));
const NOW = Date.UTC(2030, 0, 1);
const OUR_HASH = "$2b$04$ymAxpE7LaUns9Mlhy7zlF.CQMow7nXFvc2YvOirrJLG97iCS2H8Gq";

async function withKv(fn: (kv: Deno.Kv) => Promise<void>) {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv);
  } finally {
    kv.close();
  }
}

async function count(kv: Deno.Kv): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix: [] })) n++;
  return n;
}

/** Our first-start admin (id 1 "admin"), "zed" (id 2) and "Alice" (id 3) who owns a share. */
async function existing(kv: Deno.Kv) {
  const base = userFromDefaults(defaultSettings(), "admin", OUR_HASH);
  await users.createUser(kv, base);
  await users.createUser(kv, { ...base, username: "zed" });
  const alice = await users.createUser(kv, { ...base, username: "Alice" });
  await shares.createShare(kv, {
    hash: "ours0001",
    path: "/x",
    userID: alice.id,
    expire: 0,
    passwordHash: "",
    token: "",
  });
  await shares.createShare(kv, {
    hash: "aBcD1234",
    path: "/y",
    userID: 1,
    expire: 0,
    passwordHash: "",
    token: "",
  });
  await sessions.saveSession(
    kv,
    { id: "s1", userId: 1, epoch: 0, created: NOW, expires: NOW + 3600_000 },
    NOW,
  );
}

Deno.test("import: existing users and shares with the same name or hash are reported and skipped", async () => {
  await withKv(async (kv) => {
    await existing(kv);
    const report = await importFilebrowser(kv, await fixture("small.db"), { now: NOW });
    assert.deepEqual(report.users, { imported: 0, unchanged: 0, skipped: 3 });
    assert.ok(
      report.lines.some((l) => /user 1 "admin": skipped, .*exists with other data \(--replace/.test(l)),
    );
    assert.ok(report.lines.some((l) => /user 2 "alice": skipped, .*users? 2 "zed" and 3 "Alice"/.test(l)));
    assert.ok(
      report.lines.some((l) => /user 3 "bob": skipped, conflicts with existing user 3 "Alice"/.test(l)),
    );
    // alice's shares follow her: not imported.
    assert.ok(report.lines.some((l) => /share pw5678xy: skipped, its owner "alice" is not imported/.test(l)));
    assert.equal((await users.findUser(kv, 1))!.passwordHash, OUR_HASH);
    assert.equal((await shares.findShare(kv, "aBcD1234", NOW))!.path, "/y");
    assert.equal((await users.findUser(kv, 3))!.username, "Alice");
  });
});

Deno.test("import --replace: clashing users and shares are overwritten, displaced ones removed", async () => {
  await withKv(async (kv) => {
    await existing(kv);
    const report = await importFilebrowser(kv, await fixture("small.db"), { now: NOW, replace: true });
    assert.deepEqual(report.users, { imported: 3, unchanged: 0, skipped: 0 });
    const admin = (await users.findUser(kv, 1))!;
    assert.notEqual(admin.passwordHash, OUR_HASH);
    assert.equal(admin.sessionEpoch, 1, "old tokens of the overwritten admin stop working");
    assert.equal(await sessions.findSession(kv, "s1", NOW), null);
    assert.equal((await users.findUserByName(kv, "alice"))!.id, 2);
    assert.equal(await users.findUserByName(kv, "zed"), null);
    assert.equal((await shares.findShare(kv, "aBcD1234", NOW))!.userID, 2);
    assert.deepEqual((await shares.listShares(kv, NOW, { userId: 1 })).map((s) => s.hash), []);
    assert.equal(
      await shares.findShare(kv, "ours0001", NOW),
      null,
      "the displaced Alice's share went with her",
    );
    const again = await importFilebrowser(kv, await fixture("small.db"), { now: NOW, replace: true });
    assert.deepEqual(again.users, { imported: 0, unchanged: 3, skipped: 0 });
  });
});

Deno.test("import: unknown fields of a newer filebrowser are kept in the report", async () => {
  await withKv(async (kv) => {
    const report = await importFilebrowser(kv, await fixture("newer.db"), { now: NOW });
    assert.equal(report.users.imported, 3);
    assert.ok(
      report.lines.some((l) => l === 'user 2 "alice": unknown fields otpSecret, quota; not imported'),
    );
    assert.ok(report.lines.some((l) => l === "settings: unknown fields passwordPolicy; not imported"));
  });
});

function replaceBytes(file: Uint8Array, from: string, to: string): Uint8Array {
  assert.equal(from.length, to.length);
  const f = new Uint8Array(file);
  const text = new TextDecoder("latin1").decode(f);
  const at = text.indexOf(from);
  assert.ok(at >= 0, `fixture holds ${from}`);
  f.set(new TextEncoder().encode(to), at);
  return f;
}

Deno.test("import: bad input is refused with the page or record named, and nothing is written", async () => {
  const small = await fixture("small.db");
  const cases: [string, Uint8Array, RegExp, typeof BoltFormatError | typeof FbDataError][] = [
    ["random bytes", crypto.getRandomValues(new Uint8Array(8192)), /not a bbolt database/, BoltFormatError],
    ["truncated", small.subarray(0, 12288), /not a bbolt database.*outside the file/, BoltFormatError],
    [
      "bad JSON",
      replaceBytes(small, '"username":"bob"', '"username"!"bob"'),
      /^User\/3: not valid JSON/,
      FbDataError,
    ],
    [
      "wrong type",
      replaceBytes(small, '"username":"bob"', '"username":12345'),
      /User\/3: field "username" is number/,
      FbDataError,
    ],
    ["id mismatch", replaceBytes(small, '"id":3', '"id":9'), /User\/3: the record says id 9/, FbDataError],
    [
      "share type",
      replaceBytes(small, '"userID":3', '"userID":"'),
      /^Link\/.*not valid JSON|field "userID"/,
      FbDataError,
    ],
    [
      "newer version",
      await fixture("future.db"),
      /config\/version: written by a newer filebrowser \(database version 3/,
      FbDataError,
    ],
  ];
  for (const [name, file, re, cls] of cases) {
    await withKv(async (kv) => {
      await assert.rejects(importFilebrowser(kv, file, { now: NOW }), (err: Error) => {
        assert.ok(err instanceof cls, `${name}: ${err}`);
        assert.match(err.message, re, name);
        return true;
      });
      assert.equal(await count(kv), 0, `${name}: nothing written`);
    });
  }
});

Deno.test("import: two imports racing on one KV store leave every entity whole", async () => {
  await withKv(async (kv) => {
    const file = await fixture("large.db");
    const [a, b] = await Promise.all([
      importFilebrowser(kv, file, { now: NOW }),
      importFilebrowser(kv, file, { now: NOW }),
    ]);
    assert.equal(a.users.imported + b.users.imported, 200);
    const all = await users.listUsers(kv);
    assert.equal(all.length, 200);
    for (const u of all) assert.equal((await users.findUserByName(kv, u.username))!.id, u.id);
    assert.equal((await shares.listShares(kv, NOW)).length, 1000);
  });
});

/** The fixture with the bytes of `from` replaced by those of `to` (the same length in bytes). */
function patchBytes(file: Uint8Array, from: string, to: Uint8Array): Uint8Array {
  const needle = new TextEncoder().encode(from);
  assert.equal(needle.length, to.length);
  const at = file.findIndex((_, i) => needle.every((b, j) => file[i + j] === b));
  assert.ok(at >= 0, `fixture holds ${from}`);
  const f = new Uint8Array(file);
  f.set(to, at);
  return f;
}

Deno.test("import: a username that breaks the username rules is skipped and reported; one not in NFC is stored in NFC", async () => {
  await withKv(async (kv) => {
    const small = await fixture("small.db");
    // alice gets a line break (the JSON escape \n), bob a decomposed "é" (b, e, U+0301: the bytes of "bob").
    let file = patchBytes(small, '"username":"alice"', new TextEncoder().encode('"username":"al\\nc"'));
    file = patchBytes(
      file,
      '"username":"bob"',
      new Uint8Array([...new TextEncoder().encode('"username":"'), 0x65, 0xcc, 0x81, 0x22]),
    );
    const report = await importFilebrowser(kv, file, { now: NOW });
    assert.deepEqual(report.users, { imported: 2, unchanged: 0, skipped: 1 });
    assert.ok(
      report.lines.includes(
        'user 2 "al\\nc": skipped, its username breaks the username rules: username contains an invisible or ' +
          "control character (U+000A)",
      ),
      report.lines.join("\n"),
    );
    assert.ok(
      report.lines.some((l) => l.startsWith("share ") && l.endsWith('its owner "al\\nc" is not imported')),
    );
    assert.equal(await users.findUserByName(kv, "al\nc"), null);
    assert.ok(
      report.lines.includes(
        'user 3 "e\u0301": imported as "\u00e9", the same name in NFC (the form logins use)',
      ),
    );
    assert.equal((await users.findUser(kv, 3))?.username, "\u00e9");
    // The names are checked again on a re-run: nothing changes.
    const again = await importFilebrowser(kv, file, { now: NOW });
    assert.deepEqual(again.users, { imported: 0, unchanged: 2, skipped: 1 });
  });
});
