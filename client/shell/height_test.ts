import assert from "node:assert/strict";
import {
  clampHeight,
  defaultHeight,
  HEIGHT_KEY,
  loadHeight,
  maxHeight,
  MIN_HEIGHT,
  saveHeight,
} from "./height.ts";

Deno.test("clampHeight: between the minimum and the viewport minus the top room", () => {
  const table: [number, number, number][] = [
    [300, 800, 300],
    [10, 800, 150],
    [5000, 800, 704],
    [-1, 800, 150],
    [250.6, 800, 251],
    [400, 200, MIN_HEIGHT],
  ];
  for (const [h, vp, want] of table) assert.equal(clampHeight(h, vp), want, `${h} in ${vp}`);
  assert.equal(clampHeight(NaN, 800), 320);
  assert.equal(clampHeight(Infinity, 800), 320);
  assert.equal(maxHeight(800), 704);
  assert.equal(maxHeight(100), MIN_HEIGHT);
});

Deno.test("defaultHeight: 40% of the viewport, at most 320 px, at least the minimum", () => {
  assert.equal(defaultHeight(1000), 320);
  assert.equal(defaultHeight(600), 240);
  assert.equal(defaultHeight(200), MIN_HEIGHT);
});

Deno.test("loadHeight/saveHeight: remembered, clamped, junk ignored", () => {
  const data = new Map<string, string>();
  const storage = {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => data.set(k, v),
  };
  assert.equal(loadHeight(storage, 800), 320);
  saveHeight(storage, 412.4);
  assert.equal(data.get(HEIGHT_KEY), "412");
  assert.equal(loadHeight(storage, 800), 412);
  assert.equal(loadHeight(storage, 400), 304);
  for (const junk of ["", "  ", "abc", "1e999", "NaN"]) {
    data.set(HEIGHT_KEY, junk);
    assert.equal(loadHeight(storage, 800), 320, junk);
  }
  const broken = {
    getItem(): string {
      throw new Error("denied");
    },
    setItem() {
      throw new Error("full");
    },
  };
  assert.equal(loadHeight(broken, 800), 320);
  saveHeight(broken, 300);
  assert.equal(loadHeight(null, 800), 320);
});
