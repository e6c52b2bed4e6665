/** rclone (Debian package `rclone`) as a real WebDAV client: sync a tree up, list, download, delete. */
import assert from "node:assert/strict";
import { TEST_PASSWORD } from "../_helpers.ts";
import { run, serveDav } from "./_dav.ts";

async function makeTree(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {
    "a.txt": "alpha",
    "sub/b.bin": "x".repeat(300_000),
    "sub/deeper/c d é.txt": "unicode and spaces",
    "empty.txt": "",
  };
  for (const [rel, body] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${rel}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${rel}`, body);
  }
  return files;
}

Deno.test("rclone syncs a tree up, lists it, downloads it and deletes it over WebDAV", async () => {
  const s = await serveDav();
  try {
    const obscured = (await run("rclone", ["obscure", TEST_PASSWORD])).out.trim();
    const env = {
      RCLONE_CONFIG_DAV_TYPE: "webdav",
      RCLONE_CONFIG_DAV_URL: s.davUrl,
      RCLONE_CONFIG_DAV_VENDOR: "other",
      RCLONE_CONFIG_DAV_USER: "admin",
      RCLONE_CONFIG_DAV_PASS: obscured,
      RCLONE_CONFIG: "/dev/null",
      HOME: s.t.dir,
    };
    const src = `${s.t.dir}/src`;
    const files = await makeTree(src);
    const up = await run("rclone", ["sync", src, "dav:up"], { env });
    assert.equal(up.code, 0, up.out);
    for (const [rel, body] of Object.entries(files)) {
      assert.equal(await Deno.readTextFile(`${s.t.root}/up/${rel}`), body);
    }
    const ls = await run("rclone", ["lsf", "-R", "--files-only", "dav:up"], { env });
    assert.equal(ls.code, 0, ls.out);
    assert.deepEqual(ls.out.trim().split("\n").sort(), Object.keys(files).sort());
    const down = await run("rclone", ["copy", "dav:up", `${s.t.dir}/down`], { env });
    assert.equal(down.code, 0, down.out);
    for (const [rel, body] of Object.entries(files)) {
      assert.equal(await Deno.readTextFile(`${s.t.dir}/down/${rel}`), body);
    }
    const check = await run("rclone", ["check", src, "dav:up"], { env });
    assert.equal(check.code, 0, check.out);
    const purge = await run("rclone", ["purge", "dav:up"], { env });
    assert.equal(purge.code, 0, purge.out);
    await assert.rejects(Deno.stat(`${s.t.root}/up`), Deno.errors.NotFound);
  } finally {
    await s.close();
  }
});
