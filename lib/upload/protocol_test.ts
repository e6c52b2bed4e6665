import assert from "node:assert/strict";
import { HttpError } from "../errors.ts";
import { assertChunkContentType, parseUploadLength, parseUploadOffset, tusLocation } from "./protocol.ts";

Deno.test("parseUploadLength() accepts non-negative decimals only", () => {
  assert.equal(parseUploadLength("0"), 0);
  assert.equal(parseUploadLength("197842"), 197842);
  assert.equal(parseUploadLength(" 12 "), 12);
  for (const bad of [null, undefined, "", "-1", "+1", "1.0", "1e3", "0x1f", "abc", "9007199254740993"]) {
    assert.throws(
      () => parseUploadLength(bad),
      (e: unknown) => e instanceof HttpError && e.status === 400,
      String(bad),
    );
  }
});

Deno.test("parseUploadOffset() refuses what is not a decimal", () => {
  assert.equal(parseUploadOffset("65536"), 65536);
  assert.throws(() => parseUploadOffset("-5"), { status: 400, code: "invalid_upload_offset" });
  assert.throws(() => parseUploadOffset(null), { status: 400 });
});

Deno.test("assertChunkContentType() insists on application/offset+octet-stream", () => {
  assertChunkContentType("application/offset+octet-stream");
  assert.throws(() => assertChunkContentType("application/octet-stream"), { status: 415 });
  assert.throws(() => assertChunkContentType(undefined), { status: 415 });
});

Deno.test("tusLocation() escapes each segment and keeps the base, with no query", () => {
  assert.equal(tusLocation("", "/movie.bin"), "/api/tus/movie.bin");
  assert.equal(tusLocation("/fb", "/a b/c?d#e%.txt"), "/fb/api/tus/a%20b/c%3Fd%23e%25.txt");
});
