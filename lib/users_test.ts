import assert from "node:assert/strict";
import { ensureScopeDir } from "./users.ts";

async function withBase(fn: (t: { base: string; root: string }) => Promise<void>): Promise<void> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "users-scope-" }));
  try {
    await fn({ base, root: `${base}/root` });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

const isDir = (path: string) => Deno.lstat(path).then((i) => i.isDirectory, () => false);

Deno.test("ensureScopeDir() makes the root and missing folders, and follows links that stay inside the root", async () => {
  await withBase(async ({ base, root }) => {
    await ensureScopeDir(root, "/users/alice");
    assert.equal(await isDir(`${root}/users/alice`), true);
    await ensureScopeDir(root, "/users/alice");
    await Deno.mkdir(`${root}/data`);
    await Deno.symlink(`${root}/data`, `${root}/shared`);
    await ensureScopeDir(root, "shared/bob/../carol");
    assert.equal(await isDir(`${root}/data/carol`), true);
    await Deno.writeTextFile(`${root}/file`, "");
    await assert.rejects(ensureScopeDir(root, "/file"), Deno.errors.AlreadyExists);
    assert.equal(await isDir(`${base}/root/users`), true);
  });
});

Deno.test("ensureScopeDir() refuses a scope that leads outside the root through a link, creating nothing there", async () => {
  await withBase(async ({ base, root }) => {
    await Deno.mkdir(root);
    await Deno.mkdir(`${base}/outside`);
    await Deno.symlink(`${base}/outside`, `${root}/out`);
    await Deno.symlink(`${base}/nowhere`, `${root}/dangling`);
    for (const scope of ["/out/home", "/out", "/dangling/home"]) {
      await assert.rejects(ensureScopeDir(root, scope), (e: Error & { status?: number; code?: string }) => {
        assert.equal(e.status, 403);
        assert.equal(e.code, "scope_outside_root");
        assert.match(e.message, /leads outside the files root through a link/);
        return true;
      });
    }
    assert.deepEqual(await Array.fromAsync(Deno.readDir(`${base}/outside`)), []);
    assert.equal(await Deno.lstat(`${base}/nowhere`).then(() => true, () => false), false);
  });
});
