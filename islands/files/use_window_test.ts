import assert from "node:assert/strict";
import { geometryOf } from "./use_window.ts";

Deno.test("geometryOf(): the mosaic fits as many 280 px columns (8 px apart) as the width holds, at least one", () => {
  const cols = (width: number) => geometryOf("mosaic", width, false).cols;
  assert.equal(cols(100), 1);
  assert.equal(cols(280), 1);
  assert.equal(cols(567), 1, "two columns need 2 × 280 + 8 px");
  assert.equal(cols(568), 2);
  assert.equal(cols(856), 3);
  assert.equal(cols(1280), 4);
});

Deno.test("geometryOf(): the gallery keeps two columns at least; the list has 40 px rows, 48 px on touch screens", () => {
  assert.equal(geometryOf("mosaic gallery", 300, true).cols, 2);
  assert.equal(geometryOf("mosaic gallery", 1264, false).cols, 6);
  assert.deepEqual(geometryOf("list", 1280, false), { cols: 1, rowH: 40, gap: 0 });
  assert.deepEqual(geometryOf("list", 360, true), { cols: 1, rowH: 48, gap: 0 });
});
