import assert from "node:assert/strict";
import { MAX_PASSWORD_BYTES, passwordBytes, passwordLengthProblem } from "./password_rules.ts";

Deno.test("passwordLengthProblem() counts UTF-8 bytes against the minimum and bcrypt's 72", () => {
  const cases: [string, number, string | null][] = [
    ["", 12, "too_short"],
    ["a".repeat(11), 12, "too_short"],
    ["a".repeat(12), 12, null],
    ["é".repeat(6), 12, null], // 6 characters, 12 bytes
    ["é".repeat(5), 12, "too_short"],
    ["a".repeat(MAX_PASSWORD_BYTES), 12, null],
    ["a".repeat(MAX_PASSWORD_BYTES + 1), 12, "too_long"],
    ["😀".repeat(18), 12, null], // 72 bytes
    ["😀".repeat(19), 12, "too_long"], // 76 bytes
    ["", 0, null],
  ];
  for (const [password, min, want] of cases) {
    assert.equal(passwordLengthProblem(password, min), want, `${passwordBytes(password)} bytes, min ${min}`);
  }
});
