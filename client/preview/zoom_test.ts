import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { clampPan, clampZoom, cycleZoom, maxZoom, pinchZoom, stepZoom, ZOOM_MIN } from "./zoom.ts";

Deno.test("maxZoom() is 4 plus the natural/displayed ratio of the longer side", () => {
  strictEqual(maxZoom({ width: 4000, height: 3000 }, { width: 1000, height: 750 }), 8);
  strictEqual(maxZoom({ width: 1000, height: 2000 }, { width: 250, height: 1000 }), 6);
  strictEqual(maxZoom({ width: 0, height: 0 }, { width: 0, height: 0 }), 5);
});

Deno.test("stepZoom() moves by 0.25 and stops at 0.25 and at the maximum", () => {
  strictEqual(stepZoom(1, { direction: 1, max: 5 }), 1.25);
  strictEqual(stepZoom(1, { direction: -1, max: 5 }), 0.75);
  strictEqual(stepZoom(0.25, { direction: -1, max: 5 }), ZOOM_MIN);
  strictEqual(stepZoom(5, { direction: 1, max: 5 }), 5);
  strictEqual(stepZoom(1.1, { direction: 1, max: 5 }), 1.25);
});

Deno.test("clampZoom() keeps the zoom within its limits", () => {
  strictEqual(clampZoom(0.1, 5), 0.25);
  strictEqual(clampZoom(9, 5), 5);
  strictEqual(clampZoom(2, 5), 2);
});

Deno.test("cycleZoom() cycles 1, 2, 4, 1", () => {
  strictEqual(cycleZoom(1), 2);
  strictEqual(cycleZoom(2), 4);
  strictEqual(cycleZoom(4), 1);
  strictEqual(cycleZoom(6), 1);
  strictEqual(cycleZoom(0.5), 1);
  strictEqual(cycleZoom(1.5), 2);
});

Deno.test("pinchZoom() scales with the finger distance", () => {
  strictEqual(pinchZoom({ scale: 1, distance: 100 }, { distance: 200, max: 5 }), 2);
  strictEqual(pinchZoom({ scale: 2, distance: 100 }, { distance: 10, max: 5 }), 0.25);
  strictEqual(pinchZoom({ scale: 2, distance: 0 }, { distance: 10, max: 5 }), 2);
});

Deno.test("clampPan() allows no pan when the image fits and bounds it otherwise", () => {
  const displayed = { width: 400, height: 300 };
  const viewport = { width: 800, height: 600 };
  deepStrictEqual(clampPan({ x: 50, y: -20 }, { scale: 1, displayed, viewport }), { x: 0, y: 0 });
  deepStrictEqual(clampPan({ x: 500, y: -500 }, { scale: 4, displayed, viewport }), { x: 400, y: -300 });
  deepStrictEqual(clampPan({ x: 10, y: 10 }, { scale: 4, displayed, viewport }), { x: 10, y: 10 });
});
