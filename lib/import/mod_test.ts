import assert from "node:assert/strict";
import { verifyPassword } from "../auth/passwords.ts";
import { defaultSettings } from "../settings.ts";
import { shares, Store, users } from "../storage/mod.ts";
import type { Settings } from "../types.ts";
import { findImportRecord, formatReport, importFilebrowser } from "./mod.ts";

const FIXTURES = new URL("../../tests/fixtures/filebrowser/", import.meta.url);
const fixture = (name: string) => Deno.readFile(new URL(name, FIXTURES));
const NOW = Date.UTC(2030, 0, 1);

async function dump(kv: Deno.Kv): Promise<string[]> {
  const out: string[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    if (e.key[0] === "meta") continue;
    out.push(JSON.stringify([e.key, e.value], (_k, v) => typeof v === "bigint" ? String(v) : v));
  }
  return out;
}

async function withKv(fn: (kv: Deno.Kv) => Promise<void>) {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv);
  } finally {
    kv.close();
  }
}

Deno.test("import: every user field round-trips, and passwords stay the old ones", async () => {
  await withKv(async (kv) => {
    const report = await importFilebrowser(kv, await fixture("small.db"), { now: NOW });
    assert.deepEqual(report.users, { imported: 3, unchanged: 0, skipped: 0 });
    const alice = (await users.findUser(kv, 2))!;
    assert.deepEqual({ ...alice, passwordHash: "" }, {
      id: 2,
      username: "alice",
      passwordHash: "",
      scope: "/alice",
      locale: "de",
      lockPassword: true,
      viewMode: "list",
      singleClick: true,
      redirectAfterCopyMove: false,
      perm: {
        admin: false,
        execute: false,
        create: true,
        rename: true,
        modify: true,
        delete: false,
        share: true,
        download: true,
        publish: false,
      },
      commands: [],
      sorting: { by: "size", asc: true },
      rules: [
        { regex: false, allow: false, path: "/private", regexp: null },
        { regex: true, allow: false, path: "", regexp: { raw: "\\.secret$" } },
      ],
      hideDotfiles: true,
      dateFormat: true,
      aceEditorTheme: "monokai",
      theme: "",
      sessionEpoch: 0,
      updatedAt: NOW,
    });
    assert.ok(await verifyPassword("alice-secret-1", alice.passwordHash));
    const admin = (await users.findUserByName(kv, "admin"))!;
    assert.equal(admin.id, 1);
    assert.equal(admin.scope, "/");
    assert.deepEqual(admin.commands, ["git", "ls"]);
    assert.equal(admin.perm.admin, true);
    assert.ok(await verifyPassword("admin-old-password", admin.passwordHash));
    // A user made after the import gets the next id.
    const next = await users.createUser(kv, { ...alice, username: "newcomer" });
    assert.equal(next.id, 4);
  });
});

Deno.test("import: shares keep hash, path, owner, expiry, password hash and token; dead ones are reported", async () => {
  await withKv(async (kv) => {
    const report = await importFilebrowser(kv, await fixture("small.db"), { now: NOW });
    assert.deepEqual(report.shares, { imported: 3, unchanged: 0, skipped: 2 });
    const pw = (await shares.findShare(kv, "pw5678xy", NOW))!;
    assert.equal(pw.path, "/photos");
    assert.equal(pw.userID, 2);
    assert.equal(pw.expire, 4102444800);
    assert.equal(pw.token, "5kzXhP0yM2mR9qT1vW3bA7cD8eF4gH6jK-LnOpQrStU=");
    assert.ok(await verifyPassword("share-pass", pw.passwordHash));
    assert.deepEqual(await shares.findShare(kv, "aBcD1234", NOW), {
      hash: "aBcD1234",
      path: "/docs/report.txt",
      userID: 2,
      expire: 0,
      passwordHash: "",
      token: "",
    });
    assert.deepEqual((await shares.listShares(kv, NOW, { userId: 3 })).map((s) => s.hash), ["bobfile1"]);
    assert.equal(await shares.findShare(kv, "expired1", NOW), null);
    assert.equal(await shares.findShare(kv, "orphan99", NOW), null);
    assert.ok(report.lines.some((l) => /share expired1: skipped, expired on 1970-01-01/.test(l)));
    assert.ok(
      report.lines.some((l) => /share orphan99: skipped, its owner, user 42, is not in the file/.test(l)),
    );
  });
});

Deno.test("import: settings carry over, our own additions stay, server options become flags", async () => {
  await withKv(async (kv) => {
    const store = new Store(kv);
    const before: Settings = { ...defaultSettings(), enableGuest: true, customCss: "body{}" };
    await store.saveSettings(before);
    const report = await importFilebrowser(kv, await fixture("small.db"), { now: NOW });
    const s = (await store.findSettings())!;
    assert.equal(s.signup, true);
    assert.equal(s.createUserDir, true);
    assert.equal(s.userHomeBasePath, "/home");
    assert.equal(s.minimumPasswordLength, 10);
    assert.deepEqual(s.branding, {
      name: "Acme Files",
      disableExternal: true,
      disableUsedPercentage: true,
      files: "/branding",
      theme: "dark",
      color: "#ff0000",
    });
    assert.deepEqual(s.tus, { chunkSize: 5242880, retryCount: 3 });
    assert.deepEqual(s.shell, ["bash", "-c"]);
    assert.deepEqual(s.commands.after_upload, ["echo uploaded"]);
    assert.deepEqual(s.rules, [{ regex: true, allow: false, path: "", regexp: { raw: "(?i)\\.DS_Store$" } }]);
    assert.equal(s.defaults.locale, "fr");
    assert.equal(s.defaults.viewMode, "list");
    assert.deepEqual(s.defaults.sorting, { by: "modified", asc: true });
    assert.deepEqual(s.defaults.commands, ["ls"]);
    assert.equal(s.defaults.perm.share, true);
    assert.equal(s.defaults.perm.admin, false);
    assert.equal(s.hideLoginButton, true);
    assert.equal(s.enableGuest, true);
    assert.equal(s.customCss, "body{}");
    assert.deepEqual(report.flags, [
      "--root /srv/files",
      "--baseurl /fb",
      "--address 0.0.0.0",
      "--port 8081",
      "--disable-thumbnails",
      "--enable-exec",
      "--disable-type-detection-by-header",
      "--token-expiration 4h",
      "--recaptcha-host https://recaptcha.net",
      "--recaptcha-key site-key",
      "--recaptcha-secret site-secret",
      "--min-password-length 10",
    ]);
    assert.ok(report.lines.some((l) => l.startsWith("settings: not imported: key")));
  });
});

Deno.test("import: a rule that does not compile is kept (it fails closed) and reported", async () => {
  await withKv(async (kv) => {
    const report = await importFilebrowser(kv, await fixture("small.db"), { now: NOW });
    const bob = (await users.findUser(kv, 3))!;
    assert.deepEqual(bob.rules, [{ regex: true, allow: false, path: "", regexp: { raw: "[unclosed" } }]);
    assert.ok(report.lines.some((l) => /user 3 "bob": rule 1 regex "\[unclosed" does not compile/.test(l)));
  });
});

Deno.test("import: a dry run writes nothing and tells the same story", async () => {
  await withKv(async (kv) => {
    const dry = await importFilebrowser(kv, await fixture("small.db"), { now: NOW, dryRun: true });
    assert.deepEqual(await dump(kv), []);
    assert.equal(await findImportRecord(kv), null);
    assert.deepEqual(dry.users, { imported: 3, unchanged: 0, skipped: 0 });
    assert.match(formatReport(dry).join("\n"), /Dry run: nothing written/);
    const real = await importFilebrowser(kv, await fixture("small.db"), { now: NOW });
    assert.deepEqual({ ...real, dryRun: true }, dry);
  });
});

Deno.test("import: re-running is a no-op (idempotent)", async () => {
  await withKv(async (kv) => {
    await importFilebrowser(kv, await fixture("small.db"), { now: NOW });
    const first = await dump(kv);
    const again = await importFilebrowser(kv, await fixture("small.db"), { now: NOW + 1000 });
    assert.deepEqual(again.users, { imported: 0, unchanged: 3, skipped: 0 });
    assert.deepEqual(again.shares, { imported: 0, unchanged: 3, skipped: 2 });
    assert.deepEqual(await dump(kv), first);
    const record = (await findImportRecord(kv))!;
    assert.equal(record.at, NOW + 1000);
    assert.equal(record.source, "filebrowser.db");
    assert.deepEqual([record.users, record.shares, record.skipped], [3, 3, 2]);
  });
});
