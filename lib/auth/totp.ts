/**
 * Time-based one-time passwords (RFC 6238) with the `otpauth` package: SHA-1, 6 digits, 30-second steps, which
 * is what every authenticator app reads from an `otpauth://` URI. Recovery codes live here too.
 */
import { Secret, TOTP } from "otpauth";

/** Seconds per TOTP step. */
export const TOTP_PERIOD = 30;
/** Digits of a TOTP code. */
export const TOTP_DIGITS = 6;
/** Steps of clock skew accepted either side of the current one. */
export const TOTP_SKEW = 1;
/** Recovery codes handed out at enrolment. */
export const RECOVERY_CODE_COUNT = 10;

/** Options of the TOTP functions. */
export interface TotpOptions {
  /** Digits (default TOTP_DIGITS); the RFC 6238 test vectors use 8. */
  digits?: number;
  algorithm?: "SHA1" | "SHA256" | "SHA512";
}

function totp(secret: Secret, options: TotpOptions = {}): TOTP {
  return new TOTP({
    secret,
    digits: options.digits ?? TOTP_DIGITS,
    period: TOTP_PERIOD,
    algorithm: options.algorithm ?? "SHA1",
  });
}

/** A new random 20-byte (160-bit) TOTP secret, base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/...` URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, options: { issuer: string; account: string }): string {
  const t = new TOTP({
    issuer: options.issuer,
    label: options.account,
    secret: Secret.fromBase32(secretBase32),
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    algorithm: "SHA1",
  });
  return t.toString();
}

/** The time step of a moment (ms since the epoch). */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD);
}

/** The code of a secret at a moment. */
export function totpCode(secret: Secret | string, nowMs: number, options: TotpOptions = {}): string {
  const s = typeof secret === "string" ? Secret.fromBase32(secret) : secret;
  return totp(s, options).generate({ timestamp: nowMs });
}

/**
 * The time step a code belongs to, within TOTP_SKEW steps of `nowMs`, or null when it matches none (or is not
 * made of the right number of digits).
 */
export function matchTotpStep(
  secret: Secret | string,
  code: string,
  nowMs: number,
  options: TotpOptions = {},
): number | null {
  const digits = options.digits ?? TOTP_DIGITS;
  if (code.length !== digits || !/^[0-9]+$/.test(code)) return null;
  const s = typeof secret === "string" ? Secret.fromBase32(secret) : secret;
  const delta = totp(s, options).validate({ token: code, timestamp: nowMs, window: TOTP_SKEW });
  return delta === null ? null : totpStep(nowMs) + delta;
}

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** A new recovery code: 12 characters (about 59 bits) from an unambiguous alphabet, as `xxxx-xxxx-xxxx`. */
export function newRecoveryCode(): string {
  const out: string[] = [];
  // Rejection sampling keeps every character equally likely (256 is not a multiple of the alphabet size).
  const limit = 256 - (256 % RECOVERY_ALPHABET.length);
  while (out.length < 12) {
    for (const b of crypto.getRandomValues(new Uint8Array(16))) {
      if (b < limit && out.length < 12) out.push(RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]);
    }
  }
  return `${out.slice(0, 4).join("")}-${out.slice(4, 8).join("")}-${out.slice(8).join("")}`;
}

/** The canonical form of a typed recovery code: lower case, without spaces or dashes. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, "");
}

/** Hex SHA-256 of a string (for high-entropy secrets: recovery codes, app passwords). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares two equal-length strings without an early exit. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
