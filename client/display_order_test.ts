import assert from "node:assert/strict";
import type { Resource } from "../lib/types.ts";
import { displayOrder, inDisplayOrder } from "./display_order.ts";

function r(name: string, isDir = false, size = 0): Resource {
  return { name, isDir, size, path: `/${name}` } as Resource;
}

const names = (items: Resource[]) => items.map((i) => i.name);

Deno.test("displayOrder() puts folders first in every sort and keeps the API order inside each group", () => {
  const table: [string, Resource[], string | undefined, string[]][] = [
    // Size, largest first: the API puts folders last, ordered by their inode size.
    [
      "size desc",
      [r("big", false, 9), r("small", false, 1), r("zeta", true, 8192), r("Alpha", true, 4096)],
      "size",
      [
        "Alpha",
        "zeta",
        "big",
        "small",
      ],
    ],
    ["size asc", [r("b", true, 8192), r("a", true, 4096), r("small", false, 1), r("big", false, 9)], "size", [
      "a",
      "b",
      "small",
      "big",
    ]],
    ["modified", [r("new.txt"), r("Old", true), r("mid.txt"), r("Older", true)], "modified", [
      "Old",
      "Older",
      "new.txt",
      "mid.txt",
    ]],
    ["name", [r("A", true), r("b.txt"), r("C", true)], "name", ["A", "C", "b.txt"]],
    ["files only", [r("b"), r("a")], "name", ["b", "a"]],
    ["folders only", [r("file10", true), r("file2", true)], "size", ["file2", "file10"]],
    ["empty", [], "name", []],
  ];
  for (const [what, items, by, want] of table) {
    assert.deepEqual(names(displayOrder(items, by ? { by, asc: false } : undefined)), want, what);
  }
});

Deno.test("inDisplayOrder() reorders a folder's items and leaves files alone", () => {
  const dir = {
    ...r("d", true),
    items: [r("x"), r("Y", true)],
    sorting: { by: "modified", asc: true },
  } as Resource;
  assert.deepEqual(names(inDisplayOrder(dir).items!), ["Y", "x"]);
  assert.deepEqual(names(dir.items!), ["x", "Y"], "the input is not changed");
  const file = r("f.txt");
  assert.equal(inDisplayOrder(file), file);
});
