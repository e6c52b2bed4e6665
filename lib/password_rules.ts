// This module is browser-compatible.
/**
 * The length rule of passwords, one for the server (which refuses with 400) and the password forms (which say so
 * while typing): counted in bytes of UTF-8, at least the configured minimum, at most 72 (bcrypt reads no more).
 */

/** bcrypt's limit: the server refuses longer passwords. */
export const MAX_PASSWORD_BYTES = 72;

/** Why a password's length is refused, or null when it is fine. */
export type PasswordLengthProblem = "too_short" | "too_long";

/** The length of a password as the rule counts it: bytes of UTF-8. */
export function passwordBytes(password: string): number {
  return new TextEncoder().encode(password).length;
}

/** Checks a password's length against the minimum and bcrypt's limit. */
export function passwordLengthProblem(password: string, minLength: number): PasswordLengthProblem | null {
  const bytes = passwordBytes(password);
  if (bytes < minLength) return "too_short";
  return bytes > MAX_PASSWORD_BYTES ? "too_long" : null;
}
