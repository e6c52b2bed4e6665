import assert from "node:assert/strict";
import { HttpError } from "../errors.ts";
import { listRecursive } from "./recursive.ts";
import { ctxFor, makeTree, pathRule, withTempRoot } from "./_testing.ts";

Deno.test("listRecursive() lists a subtree in pre-order and prunes denied folders", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, {
      "target/nested/file.txt": "x",
      "t2/a/b.txt": "",
      "t2/deny/c.txt": "",
      "t2/z.txt": "",
    });
    await Deno.symlink(outside, `${root}/t2/out`);
    const entries = await listRecursive(ctxFor(root), "/target");
    assert.deepEqual(entries.map((e) => e.path), ["/target/nested", "/target/nested/file.txt"]);
    assert.equal(entries[0].isDir, true);
    assert.equal(entries[1].size, 1);
    const ctx = ctxFor(root, { rules: [pathRule("/t2/deny")] });
    // The link leaving the scope is left out, as in a folder listing.
    assert.deepEqual((await listRecursive(ctx, "/t2/")).map((e) => e.path), [
      "/t2/a",
      "/t2/a/b.txt",
      "/t2/z.txt",
    ]);
    await assert.rejects(listRecursive(ctxFor(root), "/t2/z.txt"), (e: HttpError) => e.status === 400);
    await assert.rejects(listRecursive(ctxFor(root), "/nope"), (e: HttpError) => e.status === 404);
    await assert.rejects(listRecursive(ctxFor(root), "/t2/out"), (e: HttpError) => e.status === 403);
  });
});

Deno.test("listRecursive() judges entries under a linked base where they really are", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "d/secret.txt": "", "d/ok.txt": "" });
    await Deno.symlink("d", `${root}/alias`);
    const ctx = ctxFor(root, { rules: [pathRule("/d/secret.txt")] });
    assert.deepEqual((await listRecursive(ctx, "/alias")).map((e) => e.path), ["/alias/ok.txt"]);
  });
});

Deno.test("listRecursive() leaves out links to denied or hidden places, keeps the others unfollowed", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "d/.secret": "", "d/deny/x.txt": "", "d/ok.txt": "", "d/sub/": "" });
    for (const [link, target] of [["to-dot", ".secret"], ["to-deny", "deny"], ["to-ok", "ok.txt"]]) {
      await Deno.symlink(target, `${root}/d/${link}`);
    }
    await Deno.symlink("../.secret", `${root}/d/sub/deep-dot`);
    await Deno.symlink("..", `${root}/d/sub/up`);
    const ctx = ctxFor(root, { hideDotfiles: true, rules: [pathRule("/d/deny")] });
    assert.deepEqual((await listRecursive(ctx, "/d")).map((e) => e.path), [
      "/d/ok.txt",
      "/d/sub",
      "/d/sub/up",
      "/d/to-ok",
    ]);
  });
});
