import assert from "node:assert/strict";
import { MAX_SITE_CONFIG_BYTES, readSiteConfig, readSiteTitle } from "./site_config.ts";

async function withSite(fn: (site: string, outside: string) => Promise<void>) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "fb-siteconfig-" }));
  try {
    await Deno.mkdir(`${dir}/site`);
    await Deno.mkdir(`${dir}/other`);
    await Deno.writeTextFile(`${dir}/other/hugo.toml`, 'title = "Somebody else\'s secret"\n');
    await fn(`${dir}/site`, `${dir}/other`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("readSiteConfig() reads a regular file of the site folder", async () => {
  await withSite(async (site) => {
    await Deno.writeTextFile(`${site}/hugo.toml`, 'title = "Mine"\n');
    assert.deepEqual(await readSiteConfig(site, "hugo.toml"), { ok: true, text: 'title = "Mine"\n' });
    assert.deepEqual(await readSiteConfig(site, "config.toml"), { ok: false, why: "missing" });
    assert.deepEqual(await readSiteConfig(`${site}/nope`, "hugo.toml"), { ok: false, why: "missing" });
  });
});

Deno.test("readSiteConfig() refuses a symlinked file, a symlinked folder on the way, and odd names", async () => {
  await withSite(async (site, other) => {
    await Deno.symlink(`${other}/hugo.toml`, `${site}/hugo.toml`);
    assert.deepEqual(await readSiteConfig(site, "hugo.toml"), { ok: false, why: "refused" });
    // A link that stays inside the site folder is refused too: no read follows any link.
    await Deno.writeTextFile(`${site}/real.toml`, "x");
    await Deno.symlink("real.toml", `${site}/config.toml`);
    assert.deepEqual(await readSiteConfig(site, "config.toml"), { ok: false, why: "refused" });
    // The site folder itself swapped for a link after its real path was taken.
    await Deno.symlink(other, `${site}/swapped`);
    assert.deepEqual(await readSiteConfig(`${site}/swapped`, "hugo.toml"), { ok: false, why: "refused" });
    for (const name of ["", ".", "..", "../other/hugo.toml", "a/b"]) {
      assert.deepEqual(await readSiteConfig(site, name), { ok: false, why: "refused" }, name);
    }
  });
});

Deno.test("readSiteConfig() refuses folders and large files, and a named pipe does not block it", async () => {
  await withSite(async (site) => {
    await Deno.mkdir(`${site}/hugo.toml`);
    assert.deepEqual(await readSiteConfig(site, "hugo.toml"), { ok: false, why: "refused" });
    await Deno.writeFile(`${site}/big.toml`, new Uint8Array(MAX_SITE_CONFIG_BYTES + 1));
    assert.deepEqual(await readSiteConfig(site, "big.toml"), { ok: false, why: "refused" });
    const fifo = await new Deno.Command("mkfifo", { args: [`${site}/pipe.toml`] }).output();
    assert.ok(fifo.success);
    const read = await readSiteConfig(site, "pipe.toml");
    assert.ok(!read.ok || read.text === "", JSON.stringify(read));
  });
});

Deno.test("readSiteTitle() takes the title of the first config, and none from behind a link", async () => {
  await withSite(async (site, other) => {
    assert.equal(await readSiteTitle(site, "Fallback"), "Fallback");
    await Deno.writeTextFile(`${site}/config.yaml`, "title: From YAML\n");
    assert.equal(await readSiteTitle(site, "Fallback"), "From YAML");
    await Deno.writeTextFile(`${site}/hugo.json`, '{"title": "From JSON"}');
    assert.equal(await readSiteTitle(site, "Fallback"), "From JSON");
    await Deno.symlink(`${other}/hugo.toml`, `${site}/hugo.toml`);
    assert.equal(await readSiteTitle(site, "Fallback"), "Fallback");
    assert.equal(await readSiteTitle(null, "Fallback"), "Fallback");
  });
});
