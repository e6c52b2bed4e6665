import assert from "node:assert/strict";
import { QR_LEVEL, QR_SIZE, qrPath } from "./share_qr.ts";

Deno.test("qrPath: a version-sized grid with finder patterns and the quiet zone", () => {
  const short = qrPath("http://localhost/api/public/dl/Ab3_x-9Q");
  // Version 3 (29 modules) at level M for 41 bytes, plus 2 × 4 quiet modules.
  assert.equal(short.size, 29 + 8);
  // The top-left finder pattern starts at the quiet zone's corner.
  assert.ok(short.d.startsWith("M4 4h1v1h-1z"));
  const long = qrPath("http://localhost/api/public/dl/Ab3_x-9Q?token=" + "x".repeat(128));
  assert.ok(long.size > short.size);
  assert.notEqual(qrPath("a").d, qrPath("b").d);
});

Deno.test("qrPath: error correction level M (42 bytes fit version 3, 43 need version 4), drawn at 200 px", () => {
  // Byte-mode capacities of version 3: L 53, M 42, Q 32. Only level M puts the boundary between 42 and 43.
  assert.equal(qrPath("x".repeat(42)).size, 29 + 8);
  assert.equal(qrPath("x".repeat(43)).size, 33 + 8);
  assert.equal(QR_LEVEL, "M");
  assert.equal(QR_SIZE, 200);
});
