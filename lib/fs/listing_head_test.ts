import assert from "node:assert/strict";
import { displayOrder } from "../../client/display_order.ts";
import type { Resource, Sorting } from "../types.ts";
import { ListingCache } from "./listing_cache.ts";
import { findListingHead } from "./listing_head.ts";
import { getResourceJson } from "./resources.ts";
import { ALL_SORTINGS, ctxFor, pathRule, withTempRoot } from "./_testing.ts";

/** Folders and files mixed in every order, links to both, a dot-file and a file a rule hides. */
async function mixedFolder(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  const names = ["b10", "B2", "a1", "Zed", "éclair", "<script>", "שלום", "\"q'", "x 1", "x 01"];
  for (const [i, name] of names.entries()) {
    const path = `${dir}/${name}`;
    if (i % 3 === 0) await Deno.mkdir(path);
    else await Deno.writeTextFile(path, "y".repeat(i * 7));
    const at = new Date(Date.UTC(2024, 0, 1 + ((i * 7) % 10)));
    await Deno.utime(path, at, at);
  }
  await Deno.writeTextFile(`${dir}/.hidden`, "h");
  await Deno.writeTextFile(`${dir}/secret.txt`, "s");
  await Deno.symlink(`${dir}/b10`, `${dir}/link-dir`);
  await Deno.symlink(`${dir}/B2`, `${dir}/link-file`);
}

async function apiListing(ctx: ReturnType<typeof ctxFor>, sorting: Sorting): Promise<Resource> {
  const { json } = await getResourceJson(ctx, "/d/", { sorting, readHeaders: false });
  const decoder = new TextDecoder();
  return JSON.parse(json!.map((c) => decoder.decode(c, { stream: true })).join("") + decoder.decode());
}

Deno.test("findListingHead() gives the first items of the API's listing in the page's display order", async () => {
  await withTempRoot(async ({ root }) => {
    await mixedFolder(`${root}/d`);
    const ctx = ctxFor(root, { hideDotfiles: true, rules: [pathRule("/d/secret.txt")] });
    const cache = new ListingCache({ minEntries: 0 });
    try {
      for (const sorting of ALL_SORTINGS) {
        const api = await apiListing(ctx, sorting);
        const expected = displayOrder(api.items!, api.sorting);
        assert.equal(expected.length, 12, "rules and dot-file hiding apply");
        for (const limit of [1, 3, 5, 12, 100]) {
          for (const listings of [undefined, cache]) {
            const head = await findListingHead(ctx, "/d/", { sorting, readHeaders: false, limit, listings });
            assert.ok(head, `${JSON.stringify(sorting)} limit ${limit}`);
            assert.deepEqual(
              head.items,
              expected.slice(0, limit),
              `${JSON.stringify(sorting)} limit ${limit}`,
            );
            assert.equal(head.numDirs, api.numDirs);
            assert.equal(head.numFiles, api.numFiles);
            assert.deepEqual(head.sorting, api.sorting);
            const { items: _, ...self } = api;
            const { items: __, ...headSelf } = head;
            assert.deepEqual(headSelf, self);
          }
        }
      }
    } finally {
      await cache.close();
    }
  });
});

Deno.test("findListingHead() is null for what is not a folder the user may list", async () => {
  await withTempRoot(async ({ root }) => {
    await mixedFolder(`${root}/d`);
    await Deno.mkdir(`${root}/outside`);
    const ctx = ctxFor(root, { scope: "/d", rules: [pathRule("/secret.txt"), pathRule("/a1")] });
    const options = { sorting: ALL_SORTINGS[0], readHeaders: false, limit: 10 };
    const cases: [string, string][] = [
      ["a file", "/B2/"],
      ["a link to a file", "/link-file/"],
      ["a missing folder", "/nope/"],
      ["a folder a rule hides", "/a1/"],
      ["a file a rule hides", "/secret.txt/"],
      ["a way out of the scope", "/../outside/"],
      ["an encoded way out", "/%2e%2e/outside/"],
      ["a backslash", "/..\\outside/"],
    ];
    for (const [what, path] of cases) {
      assert.equal(await findListingHead(ctx, path, options), null, what);
    }
    assert.ok(await findListingHead(ctx, "/", options), "the scope's root is a folder");
    assert.ok(await findListingHead(ctx, "/link-dir/", options), "a link to a folder is a folder");
    const noRead = ctxFor(root, { perm: { download: false } });
    assert.ok(await findListingHead(noRead, "/d/", options), "listing needs no download permission");
  });
});
