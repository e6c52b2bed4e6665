import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import { importFilebrowser } from "../../lib/import/mod.ts";
import { runImport } from "../../cli/import_filebrowser.ts";

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
