import assert from "node:assert/strict";
import { assToVtt, isSubtitleName, normalizeBreaks, srtToVtt } from "./subtitles.ts";

Deno.test("normalizeBreaks() turns every <br> variant into a newline", () => {
  assert.equal(
    normalizeBreaks('first<br>second<BR/>third<br />fourth<br class="x">fifth'),
    "first\nsecond\nthird\nfourth\nfifth",
  );
  assert.equal(normalizeBreaks("<brand>"), "<brand>");
});

Deno.test("srtToVtt() converts cues and keeps line breaks", () => {
  const vtt = srtToVtt(
    "\ufeff1\r\n00:00:01,000 --> 00:00:02,000\r\nFirst<br>Second<BR/>Third<br />Fourth\r\n\r\n2\n00:01:00,500 --> 00:01:02,000\nNext\n",
  );
  assert.ok(vtt.startsWith("WEBVTT\n\n"));
  assert.ok(vtt.includes("00:00:01.000 --> 00:00:02.000\nFirst\nSecond\nThird\nFourth"));
  assert.ok(vtt.includes("00:01:00.500 --> 00:01:02.000\nNext"));
  assert.ok(!vtt.includes("FirstSecond"));
});

Deno.test("assToVtt() converts Dialogue events and drops style overrides", () => {
  const ass = [
    "[Script Info]",
    "Title: x",
    "[Events]",
    "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
    "Dialogue: 0,0:00:01.50,0:00:03.00,Default,,0,0,0,,{\\i1}Hello{\\i0}, world\\Nline two",
  ].join("\n");
  assert.equal(assToVtt(ass), "WEBVTT\n\n00:00:01.500 --> 00:00:03.000\nHello, world\nline two\n");
});

Deno.test("isSubtitleName() accepts vtt/srt/ass/ssa endings", () => {
  assert.ok(isSubtitleName("a.srt"));
  assert.ok(isSubtitleName("a.VTT"));
  assert.ok(!isSubtitleName("a.txt"));
  assert.ok(!isSubtitleName("srt"));
});
