/** The loops that make much short-lived garbage ask for young-generation collections (lib/young_gc.ts). */
import assert from "node:assert/strict";
import { withGcStub } from "./_young_gc_testing.ts";
import { ctxFor } from "./fs/_testing.ts";
import { measureFolder, SIZE_GC_ENTRIES } from "./fs/folder_size.ts";
import { resolveScoped } from "./fs/gate.ts";
import { SCAN_GC_ENTRIES, scanDirectory } from "./fs/listing_snapshot.ts";
import { SearchIndex } from "./search/index/mod.ts";
import { WALK_GC_ENTRIES } from "./search/index/build.ts";
import { parseSearchQuery, SEARCH_GC_ENTRIES, searchFiles } from "./search/mod.ts";

const MINOR = { type: "minor" };

/** A temp folder `big/` with `n` files (names file-00000.txt …) and `small/` with 3. */
async function withFolders(n: number, fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "young-gc-" }));
  try {
    await Deno.mkdir(`${root}/big`);
    await Deno.mkdir(`${root}/small`);
    const data = new Uint8Array(3);
    for (let i = 0; i < n; i++) {
      Deno.writeFileSync(`${root}/big/file-${String(i).padStart(5, "0")}.txt`, data);
    }
    for (let i = 0; i < 3; i++) Deno.writeFileSync(`${root}/small/f${i}.txt`, data);
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

// Just above the largest period, so each loop below crosses it at least once.
const N = Math.max(SCAN_GC_ENTRIES, WALK_GC_ENTRIES, SIZE_GC_ENTRIES, SEARCH_GC_ENTRIES) + 500;

Deno.test("directory scans, the index walk, folder sizes and searches of a big folder ask for young collections", async () => {
  await withFolders(N, async (root) => {
    await withGcStub(async (calls) => {
      const snap = await scanDirectory({ real: `${root}/big`, anchor: root }, { readHeaders: false });
      assert.equal(snap.names.length, N);
      assert.ok(calls.length >= 1, `scanDirectory: ${calls.length} collections`);
      assert.ok(calls.every((c) => JSON.stringify(c) === JSON.stringify(MINOR)));

      calls.length = 0;
      const size = await measureFolder(await resolveScoped(ctxFor(root), "/big/", "read"));
      assert.deepEqual(size, { bytes: 3 * N, files: N, folders: 0 });
      assert.ok(calls.length >= 1, `measureFolder: ${calls.length} collections`);

      calls.length = 0;
      const walked = await Array.fromAsync(searchFiles(ctxFor(root), "/big/", parseSearchQuery("file")));
      assert.equal(walked.length, N);
      assert.ok(calls.length >= 1, `searchFiles (walk): ${calls.length} collections`);

      calls.length = 0;
      const index = new SearchIndex(root, { watch: false, reconcileMs: 0 });
      try {
        await index.start();
        assert.ok(calls.length >= 1, `index walk: ${calls.length} collections`);
        calls.length = 0;
        const hits = await Array.fromAsync(
          searchFiles(ctxFor(root), "/big/", parseSearchQuery("file"), { index }),
        );
        assert.equal(hits.length, N);
        assert.ok(calls.length >= 1, `searchFiles (index): ${calls.length} collections`);
      } finally {
        await index.close();
      }
    });
  });
});

Deno.test("small folders make no young collections: the loops count their work, not their calls", async () => {
  await withFolders(0, async (root) => {
    await withGcStub(async (calls) => {
      await scanDirectory({ real: `${root}/small`, anchor: root }, { readHeaders: false });
      await measureFolder(await resolveScoped(ctxFor(root), "/small/", "read"));
      await Array.fromAsync(searchFiles(ctxFor(root), "/small/", parseSearchQuery("f")));
      const index = new SearchIndex(root, { watch: false, reconcileMs: 0 });
      try {
        await index.start();
        await Array.fromAsync(searchFiles(ctxFor(root), "/small/", parseSearchQuery("f"), { index }));
      } finally {
        await index.close();
      }
      assert.deepEqual(calls, []);
    });
  });
});
