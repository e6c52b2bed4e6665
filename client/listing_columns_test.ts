import assert from "node:assert/strict";
import type { Resource } from "../lib/types.ts";
import { columnBuffers, toColumns } from "./listing_columns.ts";
import { appendItems } from "./listing_items.ts";

function item(name: string, fields: Partial<Resource> = {}): Resource {
  return {
    path: `/dir/${name}`,
    name,
    size: 12,
    extension: name.includes(".") ? name.slice(name.lastIndexOf(".")) : "",
    modified: "2026-11-25T12:00:00.123456789Z",
    mode: 420,
    isDir: false,
    isSymlink: false,
    type: "text",
    ...fields,
  };
}

/** Through a structured clone with the buffers moved, as the worker posts them, then built in steps. */
function roundTrip(items: Resource[], step = 3): Resource[] {
  const c = toColumns(items);
  const copy = structuredClone(c, { transfer: columnBuffers(c) });
  const out: Resource[] = [];
  while (out.length < copy.count) appendItems(out, copy, { to: Math.min(copy.count, out.length + step) });
  return out;
}

Deno.test("toColumns() and appendItems() give back every item exactly, hostile names included", () => {
  const long = "ä".repeat(5000) + "😀".repeat(2000);
  const table: [string, Resource[]][] = [
    ["no items", []],
    ["one item", [item("a.txt")]],
    ["unicode, RTL and emoji", [
      item("über.txt"),
      item("שלום עולם.pdf"),
      item("مرحبا\u202e.exe"),
      item("😀👨‍👩‍👧.png"),
    ]],
    ["a very long name", [item(long), item("after-long")]],
    ["empty strings and odd characters", [item("", { path: "/" }), item('a\tb\nc\\d"e'), item(" ")]],
    ["folders, links, big numbers", [
      item("d", { isDir: true, size: 4096, type: "" as Resource["type"], mode: 2147484141 }),
      item("l", { isSymlink: true, type: "invalid_link", size: Number.MAX_SAFE_INTEGER, mode: -1 }),
      item("f", { size: 0.5 }),
    ]],
    ["items of another shape", [
      item("a"),
      item("img.jpg", { type: "image", resolution: { width: 3, height: 4 } }),
      { ...item("b"), size: "7" as unknown as number },
      { path: "/c", name: "c" } as Resource,
      item("d"),
    ]],
  ];
  for (const [label, items] of table) {
    assert.deepEqual(roundTrip(items), items, label);
    assert.deepEqual(roundTrip(items, 1000), items, `${label}, one step`);
  }
});

Deno.test("toColumns() stores repeated strings once", () => {
  const items = Array.from({ length: 1000 }, (_, i) => item(`f${i}.txt`));
  const c = toColumns(items);
  assert.deepEqual(c.strings, [".txt", "text"]);
  assert.equal(c.count, 1000);
  assert.deepEqual(Object.keys(c.odd), []);
});
