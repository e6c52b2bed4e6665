import { deepStrictEqual, strictEqual } from "node:assert/strict";
import type { Resource, ResourceType } from "../../lib/types.ts";
import { afterDelete, findNeighbours, isMedia } from "./neighbours.ts";

function item(name: string, type: ResourceType, isDir = false): Resource {
  return {
    path: `/d/${name}`,
    name,
    size: 1,
    extension: "",
    modified: "2024-01-01T00:00:00Z",
    mode: 420,
    isDir,
    isSymlink: false,
    type,
  };
}

const items = [
  item("sub", "", true),
  item("a.jpg", "image"),
  item("notes.txt", "text"),
  item("b.mp4", "video"),
  item("c.pdf", "pdf"),
  item("d.bin", "blob"),
  item("e.md", "text"),
];

Deno.test("isMedia() accepts image, video, audio and blob files only", () => {
  deepStrictEqual(items.map(isMedia), [false, true, false, true, false, true, false]);
});

Deno.test("findNeighbours() skips folders, text and pdf files", () => {
  const n = findNeighbours(items, "/d/b.mp4");
  strictEqual(n.previous?.name, "a.jpg");
  strictEqual(n.next?.name, "d.bin");
});

Deno.test("findNeighbours() has no previous at the first media file and no next at the last", () => {
  strictEqual(findNeighbours(items, "/d/a.jpg").previous, null);
  strictEqual(findNeighbours(items, "/d/d.bin").next, null);
});

Deno.test("findNeighbours() works for a non-media open file (a pdf between media files)", () => {
  const n = findNeighbours(items, "/d/c.pdf");
  strictEqual(n.previous?.name, "b.mp4");
  strictEqual(n.next?.name, "d.bin");
});

Deno.test("findNeighbours() returns nulls when the file is not in the listing", () => {
  deepStrictEqual(findNeighbours(items, "/d/missing.jpg"), { previous: null, next: null });
});

Deno.test("afterDelete() prefers the next file, then the previous one, then none", () => {
  strictEqual(afterDelete(findNeighbours(items, "/d/b.mp4"))?.name, "d.bin");
  strictEqual(afterDelete(findNeighbours(items, "/d/d.bin"))?.name, "b.mp4");
  strictEqual(afterDelete({ previous: null, next: null }), null);
});
