import assert from "node:assert/strict";
import { ctxFor, makeTooDeepTree, withTempRoot } from "./_testing.ts";
import { measureFolder } from "./folder_size.ts";
import { resolveScoped } from "./gate.ts";

Deno.test("measureFolder() reports progress and stops when its signal aborts", async () => {
  const root = await Deno.makeTempDir();
  try {
    for (let d = 0; d < 6; d++) {
      await Deno.mkdir(`${root}/d${d}`);
      for (let i = 0; i < 1000; i++) Deno.writeFileSync(`${root}/d${d}/f${i}`, new Uint8Array(2));
    }
    const dir = await resolveScoped(ctxFor(root), "/", "read");
    const progress: number[] = [];
    const total = await measureFolder(dir, {
      progressMs: 0,
      yieldEvery: 1000,
      onProgress: (s) => progress.push(s.files),
    });
    assert.deepEqual(total, { bytes: 12_000, files: 6000, folders: 6 });
    assert.ok(progress.length >= 2, `progress lines: ${progress.length}`);
    assert.ok(progress.every((n, i) => n <= 6000 && (i === 0 || n >= progress[i - 1])));
    const abort = new AbortController();
    await assert.rejects(
      measureFolder(dir, {
        signal: abort.signal,
        progressMs: 0,
        yieldEvery: 1000,
        onProgress: () => abort.abort(),
      }),
      (err: unknown) => err instanceof DOMException && err.name === "AbortError",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("measureFolder() counts a folder too deep to be opened by path in pathTooLong, and no more of it", async () => {
  await withTempRoot(async ({ root }) => {
    const deep = makeTooDeepTree(root);
    const dir = await resolveScoped(ctxFor(root), "/", "read");
    // Every reachable folder and its x.txt; the first unreachable one is seen in its parent, not walked.
    assert.deepEqual(await measureFolder(dir), {
      bytes: deep.reachable,
      files: deep.reachable,
      folders: deep.reachable + 1,
      pathTooLong: 1,
    });
    await Deno.remove(`${root}/${deep.segment}`, { recursive: true });
  });
});
