/**
 * Names that cannot be reached are never created (control characters, separators inside a name), while odd
 * names already on disk (CR, LF, U+2028, U+2029, DEL, C1) stay reachable: listed, read, renamed away, deleted.
 */
import assert from "node:assert/strict";
import { exists, filesFixture } from "../fixtures/fs/tree.ts";
import { testApp } from "../_helpers.ts";
import { captureLog } from "./_log.ts";

/** A vpath as a URL path suffix: every segment percent-encoded. */
function url(vpath: string): string {
  return vpath.split("/").map(encodeURIComponent).join("/");
}

/** The double encoding of PATCH `destination`. */
function dest(vpath: string): string {
  return encodeURIComponent(encodeURIComponent(vpath));
}

const ODD = [
  "a\nb.txt",
  "c\rd.txt",
  "x\u2028y",
  "p\u2029q.md",
  "del\u007f.txt",
  "nel\u0085.txt",
  "tab\tx.txt",
];

Deno.test("odd names already on disk are listed, read, searched, shared, renamed away and deleted", async () => {
  const f = await filesFixture();
  const log = captureLog();
  try {
    for (const name of ODD) {
      await Deno.writeTextFile(`${f.home}/${name}`, `content of ${JSON.stringify(name)}`);
    }
    await Deno.mkdir(`${f.home}/dir\nname`);
    await Deno.writeTextFile(`${f.home}/dir\nname/in\u2028side.txt`, "inside");
    const listing = await f.request("/api/resources/", { as: "u" });
    assert.equal(listing.status, 200);
    const names = (await listing.json()).items.map((i: { name: string }) => i.name);
    for (const name of [...ODD, "dir\nname"]) assert.ok(names.includes(name), JSON.stringify(name));
    for (const name of ODD) {
      const want = `content of ${JSON.stringify(name)}`;
      let r = await f.request(`/api/resources/${url(name)}`, { as: "u" });
      assert.equal(r.status, 200, JSON.stringify(name));
      const body = await r.json();
      assert.equal(body.name, name);
      assert.equal(body.content, want);
      r = await f.request(`/api/raw/${url(name)}`, { as: "u" });
      assert.equal(r.status, 200, JSON.stringify(name));
      assert.equal(await r.text(), want);
      r = await f.request(`/api/usage/${url(name)}`, { as: "u" });
      assert.equal(r.status, 200);
      await r.body?.cancel();
    }
    let r = await f.request(`/api/resources/${url("dir\nname/in\u2028side.txt")}`, { as: "u" });
    assert.equal(r.status, 200);
    assert.equal((await r.json()).content, "inside");
    r = await f.request(`/api/resources/${url("dir\nname")}/`, { as: "u" });
    assert.equal(r.status, 200);
    assert.deepEqual((await r.json()).items.map((i: { name: string }) => i.name), ["in\u2028side.txt"]);
    r = await f.request(`/api/search/?query=${encodeURIComponent("side")}`, { as: "u" });
    assert.equal(r.status, 200);
    assert.match(await r.text(), /in\u2028side\.txt/);
    // New, valid names may still go inside an existing odd folder.
    r = await f.request(`/api/resources/${url("dir\nname/new.txt")}`, { as: "u", method: "POST", body: "N" });
    assert.equal(r.status, 200, await r.clone().text());
    await r.body?.cancel();
    assert.equal(await Deno.readTextFile(`${f.home}/dir\nname/new.txt`), "N");
    r = await f.request(`/api/tus/${url("dir\nname/tus.txt")}`, {
      as: "u",
      method: "POST",
      headers: { "Upload-Length": "0" },
    });
    assert.equal(r.status, 201);
    await r.body?.cancel();
    assert.ok(await exists(`${f.home}/dir\nname/tus.txt`));
    // Share, then open through the public API.
    r = await f.request(`/api/share/${url("x\u2028y")}`, { as: "u", method: "POST", body: "{}" });
    assert.equal(r.status, 200);
    const { hash } = await r.json();
    r = await f.request(`/api/public/dl/${hash}`);
    assert.equal(await r.text(), `content of ${JSON.stringify("x\u2028y")}`);
    // Copy and rename away to clean names, then delete what is left.
    for (const [i, name] of ODD.entries()) {
      r = await f.request(`/api/resources/${url(name)}?action=copy&destination=${dest(`/copy-${i}.txt`)}`, {
        as: "u",
        method: "PATCH",
      });
      assert.equal(r.status, 200, `copy ${JSON.stringify(name)}`);
      await r.body?.cancel();
    }
    for (const [i, name] of ODD.slice(0, 3).entries()) {
      r = await f.request(`/api/resources/${url(name)}?action=rename&destination=${dest(`/clean-${i}`)}`, {
        as: "u",
        method: "PATCH",
      });
      assert.equal(r.status, 200, `rename ${JSON.stringify(name)}`);
      await r.body?.cancel();
      assert.ok(!await exists(`${f.home}/${name}`));
    }
    for (const name of [...ODD.slice(3), "dir\nname"]) {
      r = await f.request(`/api/resources/${url(name)}`, { as: "u", method: "DELETE" });
      assert.equal(r.status, 204, `delete ${JSON.stringify(name)}`);
      assert.ok(!await exists(`${f.home}/${name}`));
    }
    for (let i = 0; i < ODD.length; i++) assert.ok(await exists(`${f.home}/copy-${i}.txt`));
    assert.deepEqual(log.errors(), []);
  } finally {
    log.stop();
    await f.close();
  }
});

const BAD_NAMES: [string, string][] = [
  ["a\nb.txt", "LF"],
  ["a\rb.txt", "CR"],
  ["\u001b[31mred", "ESC"],
  ["tab\t.txt", "TAB"],
  ["del\u007f.txt", "DEL"],
  ["nel\u0085.txt", "C1 NEL"],
  ["csi\u009b.txt", "C1 CSI"],
  ["back\\slash.md", "backslash"],
  ["invoice\u202etxt.exe", "RLO"],
  ["a\u202ab", "LRE"],
  ["a\u2066b\u2069", "LRI/PDI"],
  ["mark\u200f.txt", "RLM"],
  ["mark\u200e.txt", "LRM"],
  ["alm\u061c.txt", "ALM"],
];

Deno.test("new names with control characters, bidirectional controls or a backslash are refused with 400 and nothing is created", async () => {
  const f = await filesFixture();
  const log = captureLog();
  try {
    const before = (await Array.fromAsync(Deno.readDir(f.home))).map((e) => e.name).sort();
    for (const [name, label] of BAD_NAMES) {
      const attempts: [string, string, RequestInit?][] = [
        ["POST", `/api/resources/${url(name)}`, { body: "x" }],
        ["POST", `/api/resources/${url(name)}/`],
        ["POST", `/api/resources/${url(`new-dir/${name}/f.txt`)}`, { body: "x" }],
        ["POST", `/api/resources/${url(`${name}/f.txt`)}`, { body: "x" }],
        ["PATCH", `/api/resources/a.txt?action=copy&destination=${dest("/" + name)}`],
        ["PATCH", `/api/resources/a.txt?action=rename&destination=${dest("/" + name)}`],
        ["PATCH", `/api/resources/docs?action=copy&destination=${dest(`/${name}/docs`)}`],
        ["POST", `/api/tus/${url(name)}`, { headers: { "Upload-Length": "3" } }],
        ["POST", `/api/tus/${url(`docs/${name}`)}`, { headers: { "Upload-Length": "0" } }],
      ];
      for (const [method, path, init] of attempts) {
        const r = await f.request(path, { ...init, method, as: "u" });
        const text = await r.text();
        assert.equal(r.status, 400, `${label}: ${method} ${path}: ${text}`);
        assert.match(
          text,
          /cannot create .*: name contains (a control character|a bidirectional control character|"\/" or "\\")/,
          text,
        );
      }
    }
    const after = (await Array.fromAsync(Deno.readDir(f.home))).map((e) => e.name).sort();
    assert.deepEqual(after, before);
    assert.deepEqual((await Array.fromAsync(Deno.readDir(`${f.home}/docs`))).map((e) => e.name), [
      "readme.md",
    ]);
    // U+2028/U+2029 are not control characters: allowed, and reachable again.
    const r = await f.request(`/api/resources/${url("line\u2028sep.txt")}`, {
      as: "u",
      method: "POST",
      body: "L",
    });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    const back = await f.request(`/api/raw/${url("line\u2028sep.txt")}`, { as: "u" });
    assert.equal(await back.text(), "L");
    assert.deepEqual(log.errors(), []);
  } finally {
    log.stop();
    await f.close();
  }
});

Deno.test("share custom links with control characters or separators are refused with 400", async () => {
  const t = await testApp({ users: [{ username: "u", perm: { share: true, download: true } }] });
  try {
    await Deno.writeTextFile(`${t.root}/doc.txt`, "D");
    for (const bad of ["a\nb", "a\rb", "a\tb", "a\u0085b", "a\u007fb", "a/b", "a\\b", "a\u2028b"]) {
      const r = await t.request("/api/share/doc.txt", {
        as: "u",
        method: "POST",
        body: JSON.stringify({ custom: true, customLink: bad }),
      });
      assert.equal(r.status, 400, JSON.stringify(bad));
      await r.body?.cancel();
    }
  } finally {
    await t.close();
  }
});
