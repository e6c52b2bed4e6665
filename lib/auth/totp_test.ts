import assert from "node:assert/strict";
import { Secret } from "otpauth";
import {
  matchTotpStep,
  newRecoveryCode,
  normalizeRecoveryCode,
  totpCode,
  totpStep,
  totpUri,
} from "./totp.ts";

// RFC 6238, Appendix B: the SHA-1 rows, 8 digits, secret "12345678901234567890".
const RFC_SECRET = Secret.fromUTF8("12345678901234567890");
const RFC_VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

Deno.test("totpCode() gives the SHA-1 test vectors of RFC 6238", () => {
  for (const [seconds, code] of RFC_VECTORS) {
    assert.equal(totpCode(RFC_SECRET, seconds * 1000, { digits: 8 }), code, `T = ${seconds}`);
  }
});

Deno.test("matchTotpStep() finds the step of each RFC 6238 vector", () => {
  for (const [seconds, code] of RFC_VECTORS) {
    assert.equal(matchTotpStep(RFC_SECRET, code, seconds * 1000, { digits: 8 }), Math.floor(seconds / 30));
  }
});

Deno.test("matchTotpStep() accepts one step of skew either way and refuses two", () => {
  const secret = new Secret({ size: 20 }).base32;
  const now = 1_700_000_000_000;
  const step = totpStep(now);
  for (const [offset, accepted] of [[-2, false], [-1, true], [0, true], [1, true], [2, false]] as const) {
    const code = totpCode(secret, now + offset * 30_000);
    const got = matchTotpStep(secret, code, now);
    assert.equal(got, accepted ? step + offset : null, `offset ${offset}`);
  }
});

Deno.test("matchTotpStep() refuses codes that are not 6 digits", () => {
  const secret = new Secret({ size: 20 }).base32;
  const now = 1_700_000_000_000;
  const code = totpCode(secret, now);
  for (const bad of ["", code.slice(1), `${code}0`, ` ${code}`, "abcdef", "12345\u0661", "-12345"]) {
    assert.equal(matchTotpStep(secret, bad, now), null, JSON.stringify(bad));
  }
});

Deno.test("totpUri() names issuer, account and the secret", () => {
  const uri = new URL(totpUri("JBSWY3DPEHPK3PXP", { issuer: "My Files", account: "alice" }));
  assert.equal(uri.protocol, "otpauth:");
  assert.equal(uri.searchParams.get("secret"), "JBSWY3DPEHPK3PXP");
  assert.equal(uri.searchParams.get("issuer"), "My Files");
  assert.match(decodeURIComponent(uri.pathname), /alice/);
});

Deno.test("newRecoveryCode() makes distinct xxxx-xxxx-xxxx codes that normalise without dashes", () => {
  const codes = new Set(Array.from({ length: 200 }, newRecoveryCode));
  assert.equal(codes.size, 200);
  for (const c of codes) assert.match(c, /^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
  assert.equal(normalizeRecoveryCode(" ABCD-efgh ijkm "), "abcdefghijkm");
});
