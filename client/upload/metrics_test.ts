import assert from "node:assert/strict";
import { etaSeconds, formatEta, percentOf, SpeedMeter, uploadTypeOf } from "./metrics.ts";

Deno.test("uploadTypeOf() derives the item type from the MIME prefix", () => {
  assert.equal(uploadTypeOf("video/mp4"), "video");
  assert.equal(uploadTypeOf("audio/ogg"), "audio");
  assert.equal(uploadTypeOf("image/png"), "image");
  assert.equal(uploadTypeOf("application/pdf"), "pdf");
  assert.equal(uploadTypeOf("text/csv"), "text");
  assert.equal(uploadTypeOf("application/zip"), "blob");
  assert.equal(uploadTypeOf(""), "blob");
});

Deno.test("percentOf() rounds and treats an empty file as done only when it is", () => {
  assert.equal(percentOf(1, 3), 33);
  assert.equal(percentOf(2, 3), 67);
  assert.equal(percentOf(5, 3), 100);
  assert.equal(percentOf(0, 0), 0);
  assert.equal(percentOf(0, 0, { done: true }), 100);
});

Deno.test("SpeedMeter averages the last 5 samples and moves 20 % towards the average", () => {
  const m = new SpeedMeter();
  const MIB = 1024 * 1024;
  assert.equal(m.sample(0, 0), 0, "the first call only sets the baseline");
  let expected = 0;
  const rates = [10, 10, 10, 10, 10, 0];
  let sent = 0;
  const window: number[] = [];
  rates.forEach((rate, i) => {
    sent += rate * MIB;
    window.push(rate);
    if (window.length > 5) window.shift();
    const avg = window.reduce((a, b) => a + b, 0) / window.length;
    expected = 0.2 * avg + 0.8 * expected;
    assert.equal(m.sample(sent, (i + 1) * 1000).toFixed(6), expected.toFixed(6), `sample ${i}`);
  });
  assert.equal(window.length, 5);
  m.reset();
  assert.equal(m.speed, 0);
});

Deno.test("etaSeconds() and formatEta() give hh:mm:ss or --:--:-- when unknown", () => {
  assert.equal(etaSeconds(10 * 1024 * 1024, 0), null);
  assert.equal(etaSeconds(10 * 1024 * 1024, 2), 5);
  assert.equal(formatEta(null), "--:--:--");
  assert.equal(formatEta(Infinity), "--:--:--");
  assert.equal(formatEta(0), "00:00:00");
  assert.equal(formatEta(59.2), "00:01:00");
  assert.equal(formatEta(3723), "01:02:03");
  assert.equal(formatEta(100 * 3600), "100:00:00");
});
