import assert from "node:assert/strict";
import { planArchive } from "./archive_source.ts";
import { resolveScoped } from "./gate.ts";
import { ctxFor, makeTree, pathRule, withTempRoot } from "./_testing.ts";

async function names(plan: Awaited<ReturnType<typeof planArchive>>): Promise<string[]> {
  const out: string[] = [];
  for await (const e of plan.entries) out.push(e.isDir ? e.name + "/" : e.name);
  return out;
}

Deno.test("planArchive() walks through the gate: rules, hiding, escapes, FIFOs, link loops", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, { "d/a.txt": "a", "d/deny/x.txt": "x", "d/.h": "h", "d/sub/b.txt": "b" });
    await makeTree(outside, { "s.txt": "s" });
    await Deno.symlink(outside, `${root}/d/out`);
    await Deno.symlink("..", `${root}/d/sub/loop`);
    new Deno.Command("mkfifo", { args: [`${root}/d/pipe`] }).outputSync();
    const ctx = ctxFor(root, { hideDotfiles: true, rules: [pathRule("/d/deny")] });
    const dir = await resolveScoped(ctx, "/d", "download");
    const plan = await planArchive(ctx, dir, { files: [] });
    assert.equal(plan.name, "d");
    const got = await names(plan);
    assert.deepEqual(
      got,
      ["a.txt", "sub/", "sub/b.txt", "sub/loop/"],
      "the link loop is entered once, not followed",
    );
    const sel = await planArchive(ctx, dir, { files: ["a.txt", "sub", "../../etc", "deny/x.txt", "out"] });
    assert.equal(sel.name, "d", "a selection is named after its folder, without a leading _");
    // Walking from sub, the link leads back to d once (its denied and hidden entries still skipped).
    assert.deepEqual(await names(sel), [
      "a.txt",
      "sub/",
      "sub/b.txt",
      "sub/loop/",
      "sub/loop/a.txt",
      "sub/loop/sub/",
    ]);
    const one = await planArchive(ctx, dir, { files: ["a.txt"] });
    assert.deepEqual(await names(one), ["a.txt"], "a single selected file is archived, not an empty archive");
  });
});

Deno.test("planArchive() never archives a hidden file through an in-scope link to it", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "docs/a.txt": "a", ".secret": "S", ".hd/x.txt": "X", "docs/.hd2/y.txt": "Y" });
    await Deno.symlink("../.secret", `${root}/docs/link`);
    await Deno.symlink("../.hd", `${root}/docs/dir-link`);
    await Deno.symlink("../.hd/x.txt", `${root}/docs/deep-link`);
    await Deno.symlink(".hd2/y.txt", `${root}/docs/inner-link`);
    const ctx = ctxFor(root, { hideDotfiles: true });
    const dir = await resolveScoped(ctx, "/docs", "download");
    assert.deepEqual(await names(await planArchive(ctx, dir, { files: [] })), ["a.txt"]);
    const picked = await planArchive(ctx, dir, { files: ["link", "dir-link", "deep-link", "a.txt"] });
    assert.deepEqual(await names(picked), ["a.txt"], "selecting the links by name does not help");
    const open = ctxFor(root);
    const all = await names(
      await planArchive(open, await resolveScoped(open, "/docs", "download"), { files: [] }),
    );
    assert.ok(
      all.includes("link") && all.includes("dir-link/x.txt"),
      "without hiding the links are followed",
    );
  });
});
