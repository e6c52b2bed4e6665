import assert from "node:assert/strict";
import { resolveScoped } from "./gate.ts";
import { ListingCache } from "./listing_cache.ts";
import { MAX_RENDERED_VIEWS } from "./listing_json.ts";
import { getResourceJson } from "./resources.ts";
import { ctxFor, pathRule, withTempRoot } from "./_testing.ts";

const NAME = { by: "name", asc: true };
const SIZE = { by: "size", asc: false };
const MODIFIED = { by: "modified", asc: true };

/** A folder whose listing needs several 256 KiB chunks. */
async function bigFolder(dir: string): Promise<void> {
  await Deno.mkdir(`${dir}/sub`, { recursive: true });
  for (let i = 0; i < 1500; i++) {
    Deno.writeTextFileSync(
      `${dir}/file-${String(i).padStart(5, "0")}-${"x".repeat(120)}.txt`,
      "y".repeat(i % 7),
    );
  }
  // Past the window in which the folder's mtime cannot tell a later change apart.
  await new Promise((r) => setTimeout(r, 120));
}

function text(chunks: Uint8Array[]): string {
  const decoder = new TextDecoder();
  return chunks.map((c) => decoder.decode(c, { stream: true })).join("") + decoder.decode();
}

Deno.test("listing chunks: at most 256 KiB each, the same bytes as an uncached listing", async () => {
  await withTempRoot(async ({ root }) => {
    await bigFolder(`${root}/d`);
    const ctx = ctxFor(root);
    const cache = new ListingCache({ minEntries: 0 });
    try {
      const uncached = (await getResourceJson(ctx, "/d", { sorting: NAME, readHeaders: true })).json!;
      assert.ok(uncached.length > 3, `several chunks: ${uncached.length}`);
      for (const chunk of uncached) assert.ok(chunk.length > 0 && chunk.length <= 256 * 1024);
      const parsed = JSON.parse(text(uncached));
      assert.equal(parsed.items.length, 1501);
      for (let round = 0; round < 2; round++) {
        const cached =
          (await getResourceJson(ctx, "/d", { sorting: NAME, readHeaders: true, listings: cache }))
            .json!;
        assert.equal(text(cached), text(uncached));
      }
    } finally {
      await cache.close();
    }
  });
});

Deno.test("listing chunks: a warm listing reuses the encoded items; views are kept apart and bounded", async () => {
  await withTempRoot(async ({ root }) => {
    await bigFolder(`${root}/d`);
    const admin = ctxFor(root);
    const ruled = ctxFor(root, { rules: [pathRule(`/d/file-00001-${"x".repeat(120)}.txt`, false)] });
    const cache = new ListingCache({ minEntries: 0 });
    const json = async (ctx: typeof admin, sorting: { by: string; asc: boolean }) =>
      (await getResourceJson(ctx, "/d", { sorting, readHeaders: true, listings: cache })).json!;
    try {
      const first = await json(admin, NAME);
      const second = await json(admin, NAME);
      assert.equal(cache.stats().hits >= 1, true);
      // The items chunks (all but the opening and the closing part) are the very same objects.
      assert.equal(second.length, first.length);
      for (let i = 1; i < first.length - 1; i++) assert.equal(second[i], first[i], `chunk ${i} reused`);
      // Another user's view of the same snapshot is encoded on its own.
      const other = text(await json(ruled, NAME));
      assert.ok(!other.includes("file-00001-") && text(first).includes("file-00001-"));
      assert.ok(text(await json(admin, NAME)).includes("file-00001-"));
      for (const sorting of [SIZE, MODIFIED, NAME]) await json(admin, sorting);
      const snap = await cache.snapshot(await resolveScoped(admin, "/d", "read"), { readHeaders: true });
      assert.equal(snap.rendered.size, MAX_RENDERED_VIEWS);
      // A changed sub-folder drops the encoded views (its size and time are in them); a write inside it
      // changes its mtime without an event in the parent.
      const sub = (chunks: Uint8Array[]) =>
        JSON.parse(text(chunks)).items.find((i: { name: string }) => i.name === "sub").modified;
      const before = sub(await json(admin, NAME));
      await new Promise((r) => setTimeout(r, 20));
      await Deno.writeTextFile(`${root}/d/sub/new.txt`, "n");
      const fresh = sub((await getResourceJson(admin, "/d", { sorting: NAME, readHeaders: true })).json!);
      assert.notEqual(fresh, before);
      assert.equal(sub(await json(admin, NAME)), fresh);
    } finally {
      await cache.close();
    }
  });
});
