import assert from "node:assert/strict";
import { detectType, formatModified, formatModifiedMs, goFileMode, TEXT_SIZE_LIMIT } from "./file_info.ts";
import { isBinary, mimeByExtension, sniffMime } from "./mime.ts";

Deno.test("goFileMode() uses Go's FileMode bits", () => {
  assert.equal(goFileMode(0o040755), 2147484141);
  assert.equal(goFileMode(0o100644), 420);
  assert.equal(goFileMode(0o120777), 134218239);
  assert.equal(goFileMode(0o010644), 2 ** 25 + 0o644);
  assert.equal(goFileMode(0o020666), 2 ** 26 + 2 ** 21 + 0o666);
  assert.equal(goFileMode(0o104755), 2 ** 23 + 0o755);
  assert.equal(goFileMode(0o041777), 2 ** 31 + 2 ** 20 + 0o777);
});

Deno.test("formatModified() prints RFC 3339 with trimmed fractions in the local offset", () => {
  const d = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 120));
  const s = formatModified(d);
  if (d.getTimezoneOffset() === 0) assert.equal(s, "2024-01-02T03:04:05.12Z");
  assert.match(s, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.12(Z|[+-]\d{2}:\d{2})$/);
  assert.equal(Date.parse(s), d.getTime());
  assert.doesNotMatch(formatModified(new Date(Date.UTC(2024, 0, 2))), /\./);
});

Deno.test("mimeByExtension() uses the pinned table (no host mime.types)", () => {
  assert.equal(mimeByExtension("a.TS"), "text/typescript; charset=utf-8");
  assert.equal(mimeByExtension("x.webm"), "video/webm");
  assert.equal(mimeByExtension("x.opus"), "video/ogg");
  assert.equal(mimeByExtension("x.heic"), "image/heic");
  assert.equal(mimeByExtension("photo.JPG"), "image/jpeg");
  assert.equal(mimeByExtension("x.pcx"), "image/x-pcx");
  assert.equal(mimeByExtension("Makefile"), "");
  assert.equal(mimeByExtension("x.unknownext"), "");
});

Deno.test("detectType() follows filebrowser's detection order", () => {
  const t = (name: string, o: Partial<Parameters<typeof detectType>[1]> = {}) =>
    detectType(name, { size: 10, canModify: true, ...o });
  assert.equal(t("a.mp4"), "video");
  assert.equal(t("a.flac"), "audio");
  assert.equal(t("a.png"), "image");
  assert.equal(t("a.pdf"), "pdf");
  assert.equal(t("a.txt"), "text");
  assert.equal(t("a.txt", { canModify: false }), "textImmutable");
  assert.equal(t("a.txt", { size: TEXT_SIZE_LIMIT + 1 }), "blob");
  assert.equal(t("noext"), "text", "headers not read: empty buffer is not binary");
  assert.equal(t("noext", { head: new Uint8Array([0, 1, 2, 3]) }), "blob");
  assert.equal(
    t("noext", { head: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) }),
    "image",
  );
  assert.equal(t("a.zip", { head: new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 1]) }), "blob");
  assert.equal(t("pipe", { isFifo: true }), "blob");
});

Deno.test("isBinary() tolerates a character cut at the end but not control bytes", () => {
  const enc = new TextEncoder();
  assert.equal(isBinary(new Uint8Array(0)), false);
  assert.equal(isBinary(enc.encode("hello\tworld\n\x1b[0m")), false);
  assert.equal(isBinary(enc.encode("a\x00b")), true);
  const cut = enc.encode("abc日本").slice(0, -1);
  assert.equal(isBinary(cut), false);
  assert.equal(isBinary(new Uint8Array([0x61, 0xff, 0x61, 0x61, 0x61, 0x61, 0x61])), true);
  assert.equal(sniffMime(enc.encode("plain words")), "text/plain; charset=utf-8");
  assert.equal(sniffMime(enc.encode("%PDF-1.7")), "application/pdf");
});

Deno.test("formatModifiedMs() equals formatModified() for any millisecond", () => {
  const samples = [
    0,
    1,
    10,
    100,
    999,
    1000,
    -1,
    -999,
    -1001,
    1_700_000_000_000,
    1_700_000_000_120,
    1_700_000_000_007,
  ];
  let seed = 3;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    samples.push(Math.floor((seed / 2 ** 31) * 4e12) - 1e12);
  }
  for (const ms of samples) assert.equal(formatModifiedMs(ms), formatModified(new Date(ms)), String(ms));
});
