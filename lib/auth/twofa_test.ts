import assert from "node:assert/strict";
import { defaultSettings, normalizeSettings } from "../settings.ts";
import type { StoredUser } from "../types.ts";
import { totpCode } from "./totp.ts";
import {
  confirmEnrollment,
  deleteTwoFactor,
  findTwoFactor,
  hasTwoFactor,
  isTwoFactorRequired,
  startEnrollment,
  verifySecondFactor,
} from "./twofa.ts";

const T0 = 1_700_000_000_000;
const alice = { id: 7, username: "alice", perm: { admin: false } } as unknown as StoredUser;

async function enrolled(kv: Deno.Kv): Promise<{ secret: string; codes: string[] }> {
  const { secret } = await startEnrollment(kv, alice, { issuer: "Files", now: T0 });
  const codes = await confirmEnrollment(kv, alice.id, { code: totpCode(secret, T0), now: T0 });
  assert.ok(codes);
  return { secret, codes };
}

Deno.test("an enrolment is off until confirmed with a code of the new secret", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const { secret, uri } = await startEnrollment(kv, alice, { issuer: "Files", now: T0 });
    assert.match(uri, /^otpauth:\/\/totp\//);
    assert.equal(await hasTwoFactor(kv, alice.id), false);
    assert.equal(await confirmEnrollment(kv, alice.id, { code: "000000", now: T0 }), null);
    const codes = await confirmEnrollment(kv, alice.id, { code: totpCode(secret, T0), now: T0 });
    assert.equal(codes?.length, 10);
    assert.equal(await hasTwoFactor(kv, alice.id), true);
    const stored = await findTwoFactor(kv, alice.id);
    // Only hashes are stored.
    for (const c of codes!) assert.ok(!JSON.stringify(stored).includes(c));
    await assert.rejects(startEnrollment(kv, alice, { issuer: "Files", now: T0 }), { status: 409 });
  } finally {
    kv.close();
  }
});

Deno.test("verifySecondFactor() refuses a code used before, and older steps too", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const { secret } = await enrolled(kv);
    // The confirmation code's step is spent already.
    assert.equal(
      await verifySecondFactor(kv, alice.id, { code: totpCode(secret, T0), now: T0 + 1000 }),
      false,
    );
    const later = T0 + 60_000;
    const code = totpCode(secret, later);
    assert.equal(await verifySecondFactor(kv, alice.id, { code, now: later }), true);
    assert.equal(await verifySecondFactor(kv, alice.id, { code, now: later + 5000 }), false);
    // A code of an earlier step, still inside the skew window, is refused once a later one was used.
    const earlier = totpCode(secret, later - 30_000);
    assert.equal(await verifySecondFactor(kv, alice.id, { code: earlier, now: later }), false);
  } finally {
    kv.close();
  }
});

Deno.test("verifySecondFactor() accepts ±1 step of clock skew and refuses ±2", async () => {
  for (const [offset, accepted] of [[-2, false], [-1, true], [1, true], [2, false]] as const) {
    const kv = await Deno.openKv(":memory:");
    try {
      const { secret } = await enrolled(kv);
      const now = T0 + 10 * 60_000;
      const code = totpCode(secret, now + offset * 30_000);
      assert.equal(await verifySecondFactor(kv, alice.id, { code, now }), accepted, `offset ${offset}`);
    } finally {
      kv.close();
    }
  }
});

Deno.test("verifySecondFactor() lets only one of many simultaneous uses of a code through", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const { secret } = await enrolled(kv);
    const now = T0 + 120_000;
    const code = totpCode(secret, now);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => verifySecondFactor(kv, alice.id, { code, now })),
    );
    assert.equal(results.filter(Boolean).length, 1);
  } finally {
    kv.close();
  }
});

Deno.test("a recovery code works once, in any case and with or without dashes", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const { codes } = await enrolled(kv);
    const typed = codes[3].toUpperCase().replace(/-/g, " ");
    assert.equal(await verifySecondFactor(kv, alice.id, { code: typed, now: T0 }), true);
    assert.equal(await verifySecondFactor(kv, alice.id, { code: codes[3], now: T0 }), false);
    assert.equal((await findTwoFactor(kv, alice.id))?.recovery.length, 9);
    assert.equal(await verifySecondFactor(kv, alice.id, { code: codes[4], now: T0 }), true);
    for (const bad of ["", "x".repeat(65), "abcd-efgh-jkmn", "123456"]) {
      assert.equal(await verifySecondFactor(kv, alice.id, { code: bad, now: T0 }), false, bad);
    }
  } finally {
    kv.close();
  }
});

Deno.test("verifySecondFactor() refuses everything once two-factor login is deleted", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const { secret, codes } = await enrolled(kv);
    await deleteTwoFactor(kv, alice.id);
    const now = T0 + 300_000;
    assert.equal(await verifySecondFactor(kv, alice.id, { code: totpCode(secret, now), now }), false);
    assert.equal(await verifySecondFactor(kv, alice.id, { code: codes[0], now }), false);
  } finally {
    kv.close();
  }
});

Deno.test("isTwoFactorRequired() follows settings.twoFactorRequired", () => {
  const admin = { perm: { admin: true } } as StoredUser;
  const user = { perm: { admin: false } } as StoredUser;
  const s = (v: unknown) => normalizeSettings({ ...defaultSettings(), twoFactorRequired: v });
  assert.deepEqual([isTwoFactorRequired(s(""), admin), isTwoFactorRequired(s(""), user)], [false, false]);
  assert.deepEqual([isTwoFactorRequired(s("admins"), admin), isTwoFactorRequired(s("admins"), user)], [
    true,
    false,
  ]);
  assert.deepEqual([isTwoFactorRequired(s("all"), admin), isTwoFactorRequired(s("all"), user)], [true, true]);
  assert.equal(isTwoFactorRequired(s("bogus"), admin), false);
});
