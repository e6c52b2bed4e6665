import assert from "node:assert/strict";
import type { Resource } from "../types.ts";
import { compareNatural, naturalLess, type SortableItem, sortItems } from "./sort.ts";

function item(name: string, o: { dir?: boolean; size?: number; mtime?: number } = {}): SortableItem {
  const resource = { name, isDir: o.dir ?? false, size: o.size ?? 0 } as Resource;
  return { resource, mtimeMs: o.mtime ?? 0 };
}

Deno.test("naturalLess() compares digit runs as numbers and falls back to bytes", () => {
  assert.ok(naturalLess("file2", "file10"));
  assert.ok(!naturalLess("file10", "file2"));
  assert.ok(naturalLess("a01", "a1"), "equal numbers without a tail fall back to bytes");
  assert.ok(naturalLess("a", "ab"));
  assert.ok(!naturalLess("ab", "ab"));
  assert.ok(naturalLess("x2y1", "x2y10"));
  assert.ok(naturalLess("b", "c"));
  assert.ok(naturalLess("99999999999999999999999", "a"), "over-long runs compare as bytes");
});

Deno.test("sortItems() by name puts folders first and inverts the asc flag", () => {
  const items = [
    item("b10.txt"),
    item("B2.txt"),
    item("zdir", { dir: true }),
    item("a.txt"),
    item("adir", { dir: true }),
  ];
  sortItems(items, { by: "name", asc: false });
  assert.deepEqual(items.map((i) => i.resource.name), ["adir", "zdir", "a.txt", "B2.txt", "b10.txt"]);
  sortItems(items, { by: "name", asc: true });
  assert.deepEqual(items.map((i) => i.resource.name), ["zdir", "adir", "b10.txt", "B2.txt", "a.txt"]);
});

Deno.test("sortItems() by size and modified", () => {
  const items = [
    item("big", { size: 100 }),
    item("d", { dir: true, size: 4096 }),
    item("small", { size: 1 }),
  ];
  sortItems(items, { by: "size", asc: true });
  assert.deepEqual(items.map((i) => i.resource.name), ["d", "small", "big"]);
  sortItems(items, { by: "size", asc: false });
  assert.deepEqual(items.map((i) => i.resource.name), ["big", "small", "d"]);
  const t = [item("old", { mtime: 1 }), item("new", { mtime: 3 }), item("mid", { mtime: 2 })];
  sortItems(t, { by: "modified", asc: true });
  assert.deepEqual(t.map((i) => i.resource.name), ["old", "mid", "new"]);
  sortItems(t, { by: "modified", asc: false });
  assert.deepEqual(t.map((i) => i.resource.name), ["new", "mid", "old"]);
  const u = [item("b"), item("a", { dir: true }), item("C")];
  sortItems(u, { by: "", asc: false });
  assert.deepEqual(u.map((i) => i.resource.name), ["C", "a", "b"], "unknown by: byte order");
});

Deno.test("compareNatural() orders exactly like naturalLess()", () => {
  const parts = [
    "a",
    "b",
    "0",
    "1",
    "01",
    "10",
    "2",
    "99999999999999999999",
    "123456789012345678",
    ".",
    "-",
    "é",
    "😀",
    "\uffff",
    "18446744073709551615",
    "9999999999999999999",
    "1234567890123456789",
    "18446744073709551616",
    "00000000000000000001",
    "000000000000000000001",
  ];
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const names: string[] = [];
  for (let i = 0; i < 600; i++) {
    let n = "";
    const len = 1 + Math.floor(rand() * 5);
    for (let k = 0; k < len; k++) n += parts[Math.floor(rand() * parts.length)];
    names.push(n);
  }
  for (const a of names) {
    for (const b of names.slice(0, 120)) {
      const want = naturalLess(a, b) ? -1 : naturalLess(b, a) ? 1 : 0;
      assert.equal(compareNatural(a, b), want, `${a} vs ${b}`);
    }
  }
});
