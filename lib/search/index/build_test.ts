import assert from "node:assert/strict";
import { makeTree, withTempRoot } from "../../fs/_testing.ts";
import { syncDirs } from "./build.ts";
import { IndexTree } from "./tree.ts";

Deno.test("syncDirs() never reads a folder swapped for a link to outside since it was indexed", async () => {
  await withTempRoot(async ({ root, outside }) => {
    const real = await Deno.realPath(root);
    await makeTree(real, { "d/inside.txt": "" });
    await makeTree(outside, { "leak.txt": "" });
    const tree = new IndexTree();
    await syncDirs(tree, real, [{ id: 0, rel: "" }]);
    const d = tree.lookup("d");
    assert.deepEqual([...tree.children(d).keys()], ["inside.txt"]);
    await Deno.rename(`${real}/d`, `${real}/d.moved`);
    await Deno.symlink(outside, `${real}/d`);
    // The tree still holds "d" as a folder (the watcher has not told yet): reading it again must not follow.
    await syncDirs(tree, real, [{ id: d, rel: "d" }]);
    assert.equal(tree.lookup("d/leak.txt"), -1);
    assert.deepEqual([...tree.children(d).keys()], []);
  });
});
