import assert from "node:assert/strict";
import { ctxFor, makeTooDeepTree, makeTree, pathRule, withTempRoot } from "../fs/_testing.ts";
import { SearchIndex } from "./index/mod.ts";
import { parseSearchQuery, searchFiles, searchStream } from "./mod.ts";

Deno.test("searchFiles() walks depth-first, applies rules/hiding/scope, never follows links", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, {
      "a/cat.jpg": "",
      "a/b/cat2.png": "",
      "deny/cat.jpg": "",
      "deny/ok/cat.jpg": "",
      ".hidden/cat.jpg": "",
      "cats/": "",
      "dog.txt": "",
    });
    await makeTree(outside, { "cat-secret.jpg": "" });
    await Deno.symlink(outside, `${root}/cat-out`);
    await Deno.symlink(`${root}/a`, `${root}/cat-in`);
    const ctx = ctxFor(root, {
      hideDotfiles: true,
      rules: [pathRule("/deny"), pathRule("/deny/ok", true)],
    });
    const hits = await Array.fromAsync(searchFiles(ctx, "/", parseSearchQuery("cat")));
    assert.deepEqual(hits, [
      { dir: false, path: "a/b/cat2.png" },
      { dir: false, path: "a/cat.jpg" },
      { dir: false, path: "cat-in" },
      { dir: true, path: "cats" },
      { dir: false, path: "deny/ok/cat.jpg" },
    ]);
    const sub = await Array.fromAsync(searchFiles(ctx, "/a/", parseSearchQuery("type:image")));
    assert.deepEqual(sub.map((h) => h.path), ["b/cat2.png", "cat.jpg"]);
    assert.deepEqual(await Array.fromAsync(searchFiles(ctx, "/cat-out/", parseSearchQuery(""))), []);
    assert.deepEqual(await Array.fromAsync(searchFiles(ctx, "/missing/", parseSearchQuery(""))), []);
  });
});

Deno.test("searchStream() writes NDJSON and stops when cancelled", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "x/one.txt": "", "x/two.txt": "" });
    const body = await new Response(await searchStream(ctxFor(root), "/", "txt")).text();
    assert.equal(body, '{"dir":false,"path":"x/one.txt"}\n{"dir":false,"path":"x/two.txt"}\n');
    const ac = new AbortController();
    const stream = await searchStream(ctxFor(root), "/", "", { signal: ac.signal });
    const reader = stream.getReader();
    await reader.read();
    ac.abort();
    await reader.cancel();
  });
});

Deno.test("searchFiles() judges entries under a linked base where they really are", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "d/secret.txt": "", "d/ok.txt": "" });
    await Deno.symlink("d", `${root}/alias`);
    const ctx = ctxFor(root, { rules: [pathRule("/d/secret.txt")] });
    const hits = await Array.fromAsync(searchFiles(ctx, "/alias/", parseSearchQuery("txt")));
    assert.deepEqual(hits, [{ dir: false, path: "ok.txt" }]);
  });
});

Deno.test("searchFiles() never walks into a folder swapped for a link to outside after it was listed", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, { "d/inside.txt": "" });
    await makeTree(outside, { "leak.txt": "" });
    const hits = [];
    for await (const hit of searchFiles(ctxFor(root), "/", parseSearchQuery(""))) {
      hits.push(hit.path);
      if (hit.path === "d") {
        await Deno.rename(`${root}/d`, `${root}/d.moved`);
        await Deno.symlink(outside, `${root}/d`);
      }
    }
    assert.deepEqual(hits, ["d"]);
  });
});

Deno.test("searchStream() ends with a truncation line when folders are too deep to read, walking or indexed", async () => {
  await withTempRoot(async ({ root }) => {
    const deep = makeTooDeepTree(root);
    // Depth first, names in code point order: the deepest reachable x.txt comes first.
    const expected = Array.from({ length: deep.reachable }, (_, i) => {
      const path = Array.from({ length: deep.reachable - i }, () => deep.segment).join("/") + "/x.txt";
      return `{"dir":false,"path":${JSON.stringify(path)}}\n`;
    }).join("") + `{"truncated":"path_too_long","folders":1}\n`;
    const walked = await new Response(await searchStream(ctxFor(root), "/", "x.txt")).text();
    assert.equal(walked, expected);
    const index = new SearchIndex(root, { watch: false, reconcileMs: 0 });
    try {
      await index.start();
      const indexed = await new Response(await searchStream(ctxFor(root), "/", "x.txt", { index })).text();
      assert.equal(indexed, expected);
      // Nothing too deep below a folder of its own.
      await Deno.mkdir(`${root}/flat`);
      await index.refresh();
      assert.equal(await new Response(await searchStream(ctxFor(root), "/flat/", "x", { index })).text(), "");
    } finally {
      await index.close();
    }
    await Deno.remove(`${root}/${deep.segment}`, { recursive: true });
  });
});
