import assert from "node:assert/strict";
import { copyEntry } from "./copy.ts";
import { resolveScoped } from "./gate.ts";
import { moveEntry } from "./move.ts";
import { ctxFor, exists, makeTree, pathRule, withTempRoot } from "./_testing.ts";

const SECRET = "top-secret-bytes";

/** Every regular file below `dir` (links not followed) whose content holds the secret. */
async function filesHoldingSecret(dir: string, out: string[] = []): Promise<string[]> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) await filesHoldingSecret(path, out);
    else if (e.isFile && (await Deno.readTextFile(path)).includes(SECRET)) out.push(path);
  }
  return out;
}

/** docs/ with a plain file, a dot-file of its own, a visible link and links into hidden places. */
async function hiddenLinkTree(root: string): Promise<void> {
  await makeTree(root, {
    "docs/a.txt": "a",
    "docs/.own": "own dot-file",
    ".secret": SECRET,
    ".hd/x.txt": SECRET,
    "private/p.txt": SECRET,
  });
  await Deno.symlink("../.secret", `${root}/docs/link`);
  await Deno.symlink(`${root}/.hd`, `${root}/docs/dir-link`);
  await Deno.symlink("../.hd/x.txt", `${root}/docs/deep-link`);
  await Deno.symlink("a.txt", `${root}/docs/ok-link`);
}

Deno.test("copyEntry() skips links to hidden targets instead of copying their bytes", async () => {
  await withTempRoot(async ({ root }) => {
    await hiddenLinkTree(root);
    const ctx = ctxFor(root, { hideDotfiles: true });
    await copyEntry(await resolveScoped(ctx, "/docs", "create"), await resolveScoped(ctx, "/out", "create"));
    const names = (await Array.fromAsync(Deno.readDir(`${root}/out`))).map((e) => e.name).sort();
    // The tree's own dot-file is copied (upstream: descendants are not hidden), links into hidden places are not.
    assert.deepEqual(names, [".own", "a.txt", "ok-link"]);
    assert.equal(await Deno.readTextFile(`${root}/out/ok-link`), "a");
    assert.deepEqual(await filesHoldingSecret(`${root}/out`), []);
  });
});

Deno.test("copyEntry() follows the same links when dot-files are not hidden (the skip is about hiding)", async () => {
  await withTempRoot(async ({ root }) => {
    await hiddenLinkTree(root);
    await Deno.remove(`${root}/docs/dir-link`);
    const ctx = ctxFor(root);
    await copyEntry(await resolveScoped(ctx, "/docs", "create"), await resolveScoped(ctx, "/out", "create"));
    assert.equal(await Deno.readTextFile(`${root}/out/link`), SECRET);
    assert.equal(await Deno.readTextFile(`${root}/out/deep-link`), SECRET);
  });
});

Deno.test("copyEntry() skips links to rule-denied targets the same way", async () => {
  await withTempRoot(async ({ root }) => {
    await hiddenLinkTree(root);
    await Deno.remove(`${root}/docs/dir-link`);
    await Deno.symlink("../private/p.txt", `${root}/docs/denied-link`);
    const ctx = ctxFor(root, { rules: [pathRule("/private")] });
    await copyEntry(await resolveScoped(ctx, "/docs", "create"), await resolveScoped(ctx, "/out", "create"));
    assert.equal(await exists(`${root}/out/denied-link`), false);
    assert.equal(await Deno.readTextFile(`${root}/out/a.txt`), "a");
  });
});

Deno.test("moveEntry() copy fallback moves links as links, never their hidden targets' bytes", async () => {
  await withTempRoot(async ({ root }) => {
    await hiddenLinkTree(root);
    const ctx = ctxFor(root, { hideDotfiles: true });
    await moveEntry(
      await resolveScoped(ctx, "/docs", "rename"),
      await resolveScoped(ctx, "/moved", "rename"),
      { forceCopy: true },
    );
    assert.equal(await exists(`${root}/docs`), false);
    for (
      const [name, target] of [["link", "../.secret"], ["ok-link", "a.txt"], ["deep-link", "../.hd/x.txt"]]
    ) {
      assert.ok((await Deno.lstat(`${root}/moved/${name}`)).isSymlink, name);
      assert.equal(await Deno.readLink(`${root}/moved/${name}`), target);
    }
    assert.ok((await Deno.lstat(`${root}/moved/dir-link`)).isSymlink);
    assert.deepEqual(await filesHoldingSecret(`${root}/moved`), []);
    // Merging into a non-empty folder (rename(2) fails there) takes the same path.
    await makeTree(root, { "src2/n.txt": "n", "moved2/old.txt": "old" });
    await Deno.symlink("../.secret", `${root}/src2/link`);
    await moveEntry(
      await resolveScoped(ctx, "/src2", "rename"),
      await resolveScoped(ctx, "/moved2", "rename"),
    );
    assert.equal(await Deno.readLink(`${root}/moved2/link`), "../.secret");
    assert.deepEqual(await filesHoldingSecret(`${root}/moved2`), []);
    assert.equal(await exists(`${root}/src2`), false);
  });
});
