/**
 * Two-factor login (docs/security.md#two-factor-login): a TOTP secret per user, enrolled with a confirmation code,
 * plus ten single-use recovery codes stored as SHA-256 hashes. A TOTP code is accepted once: the last used time
 * step is remembered, and only a later step passes (written with a compare-and-set, so two simultaneous logins
 * with one code cannot both succeed).
 */
import { ConflictError, KvCommitError } from "../errors.ts";
import { keys } from "../storage/keys.ts";
import type { Throttle } from "./throttle.ts";
import type { Settings, StoredUser, TwoFactorEnrollment, TwoFactorStatus } from "../types.ts";
import {
  constantTimeEqual,
  matchTotpStep,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
  RECOVERY_CODE_COUNT,
  sha256Hex,
  TOTP_DIGITS,
  totpUri,
} from "./totp.ts";

/** The stored two-factor state of a user. */
export interface TwoFactorRecord {
  /** TOTP secret, base32. */
  secret: string;
  /** False while the enrolment waits for its confirmation code. */
  enabled: boolean;
  /** The last time step whose code was accepted (codes of this step or earlier are refused). */
  lastStep: number;
  /** SHA-256 (hex) of the unused recovery codes. */
  recovery: string[];
  created: number;
}

// An unconfirmed enrolment is forgotten after an hour.
const PENDING_TTL_MS = 3600_000;
const MAX_CAS_TRIES = 20;

/** The two-factor record of a user, or null. */
export async function findTwoFactor(kv: Deno.Kv, userId: number): Promise<TwoFactorRecord | null> {
  return (await kv.get<TwoFactorRecord>(keys.twoFactor(userId))).value;
}

/** True when the user has confirmed a TOTP enrolment. */
export async function hasTwoFactor(kv: Deno.Kv, userId: number): Promise<boolean> {
  return (await findTwoFactor(kv, userId))?.enabled === true;
}

/** True when the admin's settings require this user to use two-factor login. */
export function isTwoFactorRequired(settings: Settings, user: Pick<StoredUser, "perm">): boolean {
  const want = settings.twoFactorRequired ?? "";
  return want === "all" || (want === "admins" && user.perm.admin);
}

/** True when the user must enrol before using anything but the enrolment (no KV read unless it is required). */
export async function needsEnrollment(
  kv: Deno.Kv,
  settings: Settings,
  user: Pick<StoredUser, "id" | "perm">,
): Promise<boolean> {
  return isTwoFactorRequired(settings, user) && !await hasTwoFactor(kv, user.id);
}

/** The requester's two-factor state (GET /api/twofa). */
export async function twoFactorStatus(
  kv: Deno.Kv,
  settings: Settings,
  user: StoredUser,
): Promise<TwoFactorStatus> {
  const record = await findTwoFactor(kv, user.id);
  const enabled = record?.enabled === true;
  return {
    enabled,
    recoveryCodesLeft: enabled ? record!.recovery.length : 0,
    required: isTwoFactorRequired(settings, user),
  };
}

/** Starts (or restarts) an enrolment: a new secret, not yet in force. 409 when two-factor login is already on. */
export async function startEnrollment(
  kv: Deno.Kv,
  user: StoredUser,
  options: { issuer: string; now: number },
): Promise<TwoFactorEnrollment> {
  const entry = await kv.get<TwoFactorRecord>(keys.twoFactor(user.id));
  if (entry.value?.enabled) throw new ConflictError("twofa_enabled");
  const secret = newTotpSecret();
  const record: TwoFactorRecord = { secret, enabled: false, lastStep: 0, recovery: [], created: options.now };
  const res = await kv.atomic().check(entry).set(keys.twoFactor(user.id), record, {
    expireIn: PENDING_TTL_MS,
  })
    .commit();
  if (!res.ok) throw new KvCommitError("startEnrollment: concurrent change");
  return { secret, uri: totpUri(secret, { issuer: options.issuer, account: user.username }) };
}

/**
 * Confirms an enrolment with a code of the new secret; returns the recovery codes (shown once). False when the
 * code is wrong or no enrolment is waiting.
 */
export async function confirmEnrollment(
  kv: Deno.Kv,
  userId: number,
  options: { code: string; now: number },
): Promise<string[] | null> {
  const entry = await kv.get<TwoFactorRecord>(keys.twoFactor(userId));
  const record = entry.value;
  if (!record) return null;
  if (record.enabled) throw new ConflictError("twofa_enabled");
  const step = matchTotpStep(record.secret, options.code.replace(/\s+/g, ""), options.now);
  if (step === null) return null;
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const recovery = await Promise.all(codes.map((c) => sha256Hex(normalizeRecoveryCode(c))));
  const next: TwoFactorRecord = { ...record, enabled: true, lastStep: step, recovery, created: options.now };
  const res = await kv.atomic().check(entry).set(keys.twoFactor(userId), next).commit();
  if (!res.ok) throw new KvCommitError("confirmEnrollment: concurrent change");
  return codes;
}

/**
 * Checks a second factor: a TOTP code of a step later than the last one used (±1 step of skew), or an unused
 * recovery code, which is then spent. True when accepted; the record is updated before this returns.
 */
export async function verifySecondFactor(
  kv: Deno.Kv,
  userId: number,
  options: { code: string; now: number },
): Promise<boolean> {
  const code = options.code.trim();
  if (code === "" || code.length > 64) return false;
  const isTotp = isTotpCode(code);
  const recoveryHash = isTotp ? "" : await sha256Hex(normalizeRecoveryCode(code));
  for (let attempt = 0; attempt < MAX_CAS_TRIES; attempt++) {
    const entry = await kv.get<TwoFactorRecord>(keys.twoFactor(userId));
    const record = entry.value;
    if (!record?.enabled) return false;
    let next: TwoFactorRecord;
    if (isTotp) {
      const step = matchTotpStep(record.secret, code.replace(/\s+/g, ""), options.now);
      // A replayed code (same or older step) is refused, even inside its window.
      if (step === null || step <= record.lastStep) return false;
      next = { ...record, lastStep: step };
    } else {
      const index = record.recovery.findIndex((h) => constantTimeEqual(h, recoveryHash));
      if (index < 0) return false;
      next = { ...record, recovery: record.recovery.filter((_, i) => i !== index) };
    }
    if ((await kv.atomic().check(entry).set(keys.twoFactor(userId), next).commit()).ok) return true;
    // Someone else changed the record (maybe with this very code): read it again and decide anew.
  }
  return false;
}

/** True when a code has the shape of a TOTP code (six digits, spaces aside) rather than of a recovery code. */
export function isTotpCode(code: string): boolean {
  return new RegExp(`^[0-9]{${TOTP_DIGITS}}$`).test(code.replace(/\s+/g, ""));
}

/**
 * {@link verifySecondFactor} within the account's budget of wrong TOTP codes (docs/security.md#two-factor-login):
 * a six-digit code takes a slot of `budget` for the user whoever the client is (429 once the budget is spent)
 * and gives it back when right. Recovery codes (about 59 bits each, beyond guessing) are not counted, so the
 * owner can still sign in with one while someone who knows the password has spent the budget.
 */
export async function verifySecondFactorWithin(
  kv: Deno.Kv,
  budget: Throttle,
  userId: number,
  options: { code: string; now: number },
): Promise<boolean> {
  const slot = isTotpCode(options.code.trim())
    ? await budget.reserveSubject(`user:${userId}`, options.now)
    : null;
  const ok = await verifySecondFactor(kv, userId, options);
  if (ok) await slot?.release();
  return ok;
}

/** Turns two-factor login off for a user (own disable after re-authentication, or an admin's reset). */
export async function deleteTwoFactor(kv: Deno.Kv, userId: number): Promise<void> {
  await kv.delete(keys.twoFactor(userId));
}
