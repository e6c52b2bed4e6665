import assert from "node:assert/strict";
import { pruneSelection, selectOnly, toggleSelected } from "./selection.ts";
import { items, listing, selectedItems, selection } from "./state.ts";
import type { Resource } from "../lib/types.ts";

function folderOf(names: string[]): Resource {
  return { name: "", path: "/", isDir: true, items: names.map(file) } as unknown as Resource;
}

function file(name: string): Resource {
  return { name, path: `/${name}`, isDir: false, size: 1, modified: "2024-01-01T00:00:00Z" } as Resource;
}

Deno.test("pruneSelection(): a replaced listing keeps the selected items whose path is still there", () => {
  listing.value = folderOf(["a.txt", "b.txt", "c.txt"]);
  selectOnly(0);
  toggleSelected(2);
  assert.deepEqual([...selection.value], ["/a.txt", "/c.txt"]);
  // The reloaded listing: new objects, c.txt gone, a new file.
  listing.value = folderOf(["a.txt", "b.txt", "d.txt"]);
  pruneSelection(new Set(items.value.map((i) => i.path)));
  assert.deepEqual([...selection.value], ["/a.txt"]);
  assert.deepEqual(selectedItems.value.map((i) => i.name), ["a.txt"]);
  const before = selection.value;
  pruneSelection(new Set(items.value.map((i) => i.path)));
  assert.equal(selection.value, before, "nothing to drop: the same set, no re-render");
  selection.value = new Set();
  listing.value = null;
});
