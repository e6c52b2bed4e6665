import assert from "node:assert/strict";
import {
  defaultPublishTime,
  fromPickerValue,
  isoWithOffset,
  isUnder,
  sectionOf,
  toPickerValue,
} from "./publish.ts";

Deno.test("isoWithOffset() names the same moment, with the local offset", () => {
  for (const ms of [0, 1_700_000_000_000, Date.UTC(2031, 2, 30, 1, 30), Date.UTC(2031, 9, 26, 0, 59, 59)]) {
    const iso = isoWithOffset(new Date(ms));
    assert.match(iso, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    assert.equal(Date.parse(iso), ms);
  }
});

Deno.test("the picker value round-trips to the minute, and bad values are refused", () => {
  const ms = Date.UTC(2031, 4, 4, 7, 30);
  assert.equal(Date.parse(fromPickerValue(toPickerValue(ms))!), ms);
  for (const bad of ["", "2031-05-04", "2031-13-40T25:61", "tomorrow", "2031-05-04T07:30Z"]) {
    assert.equal(fromPickerValue(bad), null, bad);
  }
});

Deno.test("defaultPublishTime() is the next full hour at least half an hour ahead", () => {
  const hour = 3600_000;
  assert.equal(defaultPublishTime(10 * hour), 11 * hour);
  assert.equal(defaultPublishTime(10 * hour + 31 * 60_000), 12 * hour);
});

Deno.test("isUnder() and sectionOf() compare whole segments", () => {
  assert.equal(isUnder("/site/content", "/site/content/posts/a.md"), true);
  assert.equal(isUnder("/site/content/", "/site/content"), true);
  assert.equal(isUnder("/site/content", "/site/contents/a.md"), false);
  assert.equal(isUnder("/", "/anything"), true);
  assert.equal(sectionOf("/site/content", "/site/content/posts/2031/"), "posts/2031");
  assert.equal(sectionOf("/site/content", "/site/content/"), "");
});
