/**
 * Dot-file hiding follows symlinks: a folder holding an in-scope link to a hidden file (`docs/link ->
 * ../.secret`) is copied, moved and downloaded without the hidden file's bytes ever reaching a visible name.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "../_helpers.ts";

const SECRET = "hidden-secret-bytes";

async function fixture(): Promise<{ t: TestApp; home: string }> {
  const perm = { create: true, rename: true, modify: true, download: true };
  const t = await testApp({ users: [{ username: "u", perm, scope: "/u", hideDotfiles: true }] });
  const home = `${t.root}/u`;
  await Deno.mkdir(`${home}/docs`, { recursive: true });
  await Deno.mkdir(`${home}/.hd`);
  await Deno.writeTextFile(`${home}/docs/a.txt`, "visible");
  await Deno.writeTextFile(`${home}/.secret`, SECRET);
  await Deno.writeTextFile(`${home}/.hd/x.txt`, SECRET);
  await Deno.symlink("../.secret", `${home}/docs/link`);
  await Deno.symlink("../.hd", `${home}/docs/dir-link`);
  await Deno.symlink("../.hd/x.txt", `${home}/docs/deep-link`);
  return { t, home };
}

/** Regular files below `dir` (links not followed) holding the secret. */
async function leaks(dir: string, out: string[] = []): Promise<string[]> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) await leaks(path, out);
    else if (e.isFile && (await Deno.readTextFile(path)).includes(SECRET)) out.push(path);
  }
  return out;
}

const dest = (p: string) => encodeURIComponent(encodeURIComponent(p));

Deno.test("PATCH copy of a folder skips links to hidden files (200, no hidden bytes in the copy)", async () => {
  const { t, home } = await fixture();
  try {
    const r = await t.request(`/api/resources/docs?action=copy&destination=${dest("/copy")}`, {
      method: "PATCH",
      as: "u",
    });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    const names = (await Array.fromAsync(Deno.readDir(`${home}/copy`))).map((e) => e.name).sort();
    assert.deepEqual(names, ["a.txt"]);
    assert.deepEqual(await leaks(`${home}/copy`), []);
    const raw = await t.request("/api/raw/copy/link", { as: "u" });
    assert.equal(raw.status, 404);
    await raw.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("PATCH rename merging into a non-empty folder moves links as links", async () => {
  const { t, home } = await fixture();
  try {
    await Deno.mkdir(`${home}/target/docs`, { recursive: true });
    await Deno.writeTextFile(`${home}/target/docs/old.txt`, "old");
    const r = await t.request(
      `/api/resources/docs?action=rename&destination=${dest("/target/docs")}&override=true`,
      { method: "PATCH", as: "u" },
    );
    assert.equal(r.status, 200);
    await r.body?.cancel();
    assert.equal(await Deno.readLink(`${home}/target/docs/link`), "../.secret");
    assert.deepEqual(await leaks(`${home}/target`), []);
    assert.equal(await Deno.readTextFile(`${home}/target/docs/a.txt`), "visible");
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/raw folder archives (zip, tar.gz) leave out links to hidden files", async () => {
  const { t } = await fixture();
  try {
    for (const algo of ["zip", "targz"]) {
      const r = await t.request(`/api/raw/docs?algo=${algo}`, { as: "u" });
      assert.equal(r.status, 200);
      let body = r.body!;
      if (algo === "targz") body = body.pipeThrough(new DecompressionStream("gzip"));
      const text = new TextDecoder("latin1").decode(await new Response(body).arrayBuffer());
      assert.ok(text.includes("a.txt") && text.includes("visible"), algo);
      assert.ok(!text.includes(SECRET), `${algo} holds the hidden bytes`);
      assert.ok(!text.includes("link"), `${algo} names a link into a hidden place`);
    }
  } finally {
    await t.close();
  }
});
