import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import { importFilebrowser } from "../../lib/import/mod.ts";
import { runImport } from "../../cli/import_filebrowser.ts";
import { loadConfig } from "../../config.ts";
import { bootDeps } from "../../lib/boot.ts";
import { users } from "../../lib/storage/mod.ts";

const SMALL = new URL("../fixtures/filebrowser/small.db", import.meta.url);

function login(username: string, password: string): RequestInit {
  return {
    method: "POST",
    body: JSON.stringify({ username, password }),
    headers: { "Content-Type": "application/json" },
  };
}

Deno.test("imported users log in with their filebrowser passwords and their shares open", async () => {
  const t = await testApp();
  try {
    await Deno.mkdir(`${t.root}/alice/docs`, { recursive: true });
    await Deno.mkdir(`${t.root}/alice/photos`, { recursive: true });
    await Deno.writeTextFile(`${t.root}/alice/docs/report.txt`, "quarterly");
    await Deno.writeTextFile(`${t.root}/alice/photos/cat.txt`, "meow");
    // The test app's own admin (id 1) clashes with filebrowser's: --replace takes filebrowser's.
    await importFilebrowser(t.deps.kv, await Deno.readFile(SMALL), { replace: true });

    let res = await t.request("/api/login", login("alice", "alice-secret-1"));
    assert.equal(res.status, 200);
    const token = await res.text();
    res = await t.request("/api/login", login("admin", "admin-old-password"));
    assert.equal(res.status, 200);
    await res.body?.cancel();
    res = await t.request("/api/login", login("alice", "wrong-password"));
    assert.equal(res.status, 403);
    await res.body?.cancel();
    res = await t.request("/api/resources/docs/", { headers: { "X-Auth": token } });
    assert.equal(res.status, 200, "alice's scope is /alice");
    assert.deepEqual((await res.json()).items.map((i: { name: string }) => i.name), ["report.txt"]);

    res = await t.request("/api/public/share/aBcD1234");
    assert.equal(res.status, 200);
    assert.equal((await res.json()).name, "report.txt");
    res = await t.request("/api/public/dl/aBcD1234");
    assert.equal(await res.text(), "quarterly");

    res = await t.request("/api/public/share/pw5678xy");
    assert.equal(res.status, 401, "the share still asks for its password");
    await res.body?.cancel();
    res = await t.request("/api/public/share/pw5678xy", { headers: { "X-SHARE-PASSWORD": "share-pass" } });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.token, "5kzXhP0yM2mR9qT1vW3bA7cD8eF4gH6jK-LnOpQrStU=");
    res = await t.request(`/api/public/dl/pw5678xy/cat.txt?token=${encodeURIComponent(body.token)}`);
    assert.equal(await res.text(), "meow");

    res = await t.request("/api/public/share/expired1");
    assert.equal(res.status, 404);
    await res.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("deno task import-filebrowser: dry run, import, re-run and a refused file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fbimport-" });
  try {
    const out: string[] = [];
    const run = (...args: string[]) => runImport(args, (l) => out.push(l), {});
    const db = ["--database", `${dir}/data/kv.db`];
    assert.equal(await run(SMALL.pathname, "--dry-run", ...db), 0);
    assert.match(out.join("\n"), /Dry run: nothing written[^]*Users: 3 to import[^]*--port 8081/);
    out.length = 0;
    assert.equal(await run(...db, SMALL.pathname), 0);
    assert.match(out.join("\n"), /Users: 3 imported, 0 already there/);
    out.length = 0;
    assert.equal(await run(SMALL.pathname, ...db), 0);
    assert.match(out.join("\n"), /Users: 0 imported, 3 already there/);
    out.length = 0;
    await Deno.writeFile(`${dir}/junk.db`, new TextEncoder().encode("not a database at all"));
    assert.equal(await run(`${dir}/junk.db`, ...db), 1);
    assert.match(out.join("\n"), /junk\.db: not a bbolt database .*Nothing was imported\./);
    out.length = 0;
    assert.equal(await run(...db), 2, "no file given");
    assert.equal(await run(`${dir}/missing.db`, ...db), 1);
    assert.match(out.join("\n"), /Cannot read/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--import-filebrowser on a first start imports the database and creates no admin of its own", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fb_first_import_" });
  try {
    const config = loadConfig([
      "--root",
      `${dir}/files`,
      "--database",
      `${dir}/db.kv`,
      "--import-filebrowser",
      SMALL.pathname,
    ], {});
    const kv = await Deno.openKv(":memory:");
    try {
      const { firstStart, imported, deps } = await bootDeps(config, { kv });
      assert.equal(firstStart.password, undefined, "no generated admin password: the imported admin stays");
      assert.ok(imported.some((l) => /user/i.test(l)), imported.join("\n"));
      const names = (await users.listUsers(deps.kv)).map((u) => u.username).sort();
      assert.ok(names.includes("alice") && names.includes("admin"), names.join(","));
      // A second start ignores the flag (with a warning) and imports nothing again.
      const again = await bootDeps(config, { kv });
      assert.deepEqual(again.imported, []);
      assert.ok(again.warnings.some((w) => /first start only/.test(w)));
    } finally {
      kv.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--import-filebrowser with a file that is not a filebrowser database stops the start, naming the flag", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fb_first_import_bad_" });
  try {
    await Deno.writeTextFile(`${dir}/bad.db`, "not a bolt file at all".repeat(300));
    const config = loadConfig([
      "--root",
      `${dir}/files`,
      "--database",
      `${dir}/db.kv`,
      "--import-filebrowser",
      `${dir}/bad.db`,
    ], {});
    const kv = await Deno.openKv(":memory:");
    try {
      await assert.rejects(bootDeps(config, { kv }), /--import-filebrowser/);
      assert.equal((await users.listUsers(kv)).length, 0, "nothing was written");
    } finally {
      kv.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
