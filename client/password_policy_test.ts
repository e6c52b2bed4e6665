import assert from "node:assert/strict";
import { checkPassword } from "./password_policy.ts";

Deno.test("checkPassword: length in UTF-8 bytes, the confirmation and the verdict", () => {
  const cases: [string, string | null, number, string][] = [
    // password, confirm, minimum, expected flags (s = too short, l = too long, m = mismatch, o = ok)
    ["", "", 12, ""],
    ["", null, 12, ""],
    ["short", "short", 12, "s"],
    ["elevenchars", "elevenchars", 12, "s"],
    ["twelve chars", "twelve chars", 12, "o"],
    ["twelve chars", "", 12, ""],
    ["twelve chars", "twelve char", 12, "m"],
    ["short", "shorT", 12, "sm"],
    ["éééééé", "éééééé", 12, "o"], // 6 characters, 12 bytes: the server counts bytes
    ["ééééé", null, 12, "s"],
    ["a".repeat(72), null, 12, "o"],
    ["a".repeat(73), null, 12, "l"],
    ["😀".repeat(19), null, 12, "l"],
    ["x", null, 0, "o"], // a minimum of 0 still needs one character
    ["x", "x", 1, "o"],
  ];
  for (const [password, confirm, min, flags] of cases) {
    const c = checkPassword(password, confirm, min);
    const got = `${c.tooShort ? "s" : ""}${c.tooLong ? "l" : ""}${c.mismatch ? "m" : ""}${c.ok ? "o" : ""}`;
    assert.equal(got, flags, `${JSON.stringify(password)} / ${JSON.stringify(confirm)} / ${min}`);
  }
});
