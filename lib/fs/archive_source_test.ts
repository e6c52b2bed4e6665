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
    assert.equal(sel.name, "_d");
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
