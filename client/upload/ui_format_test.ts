import assert from "node:assert/strict";
import { formatPercent, formatSpeed } from "./ui_format.ts";

Deno.test("formatPercent() writes whole percentages the locale's way", () => {
  assert.equal(formatPercent(25, "en"), "25%");
  assert.equal(formatPercent(0, "en"), "0%");
  assert.equal(formatPercent(100, "en"), "100%");
  assert.equal(formatPercent(25, "tr"), "%25");
  assert.match(formatPercent(25, "de"), /^25\s%$/);
});

Deno.test("formatSpeed() keeps two decimals with the locale's separator", () => {
  assert.equal(formatSpeed(0, "en"), "0.00");
  assert.equal(formatSpeed(12.345, "en"), "12.35");
  assert.equal(formatSpeed(1.5, "de"), "1,50");
  assert.equal(formatSpeed(Number.NaN, "en"), "0.00");
});
