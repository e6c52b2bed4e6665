import assert from "node:assert/strict";
import { formatDate, formatRelative, formatSize, percentOf } from "./format.ts";

Deno.test("formatSize() uses binary units with at most 2 decimals, through the locale", () => {
  assert.equal(formatSize(0), "0 B");
  assert.equal(formatSize(1023), "1,023 B");
  assert.equal(formatSize(1024), "1 KiB");
  assert.equal(formatSize(1536), "1.5 KiB");
  assert.equal(formatSize(5_300_000), "5.05 MiB");
  assert.equal(formatSize(1536, "de"), "1,5 KiB");
  assert.equal(formatSize(-1), "");
});

Deno.test("formatRelative() says how long ago in the locale", () => {
  const now = Date.parse("2026-01-10T12:00:00Z");
  assert.equal(formatRelative("2026-01-10T07:00:00Z", { now }), "5 hours ago");
  assert.equal(formatRelative("2026-01-09T12:00:00Z", { now }), "yesterday");
  assert.equal(formatRelative("2026-01-10T11:59:30Z", { now }), "30 seconds ago");
  assert.equal(formatRelative("2026-01-10T07:00:00Z", { now, locale: "de" }), "vor 5 Stunden");
  assert.equal(formatRelative("not a date", { now }), "");
});

Deno.test("formatDate() gives the full date; percentOf() rounds and clamps", () => {
  assert.match(formatDate("2026-01-10T12:00:00Z"), /2026/);
  assert.equal(formatDate("nope"), "");
  assert.equal(percentOf(1, 3), 33);
  assert.equal(percentOf(5, 0), 0);
  assert.equal(percentOf(9, 4), 100);
});
