// This module is browser-compatible.
/**
 * What the password forms check before sending: the server's length rule (bytes of UTF-8, at least the minimum,
 * at most 72) and that the confirmation equals the password. The server still has the last word (common passwords).
 */

/** bcrypt's limit, the server refuses longer passwords. */
export const MAX_PASSWORD_BYTES = 72;

/** The state of a password (and its confirmation, when the form has one). */
export interface PasswordCheck {
  /** Non-empty and shorter than the minimum. */
  tooShort: boolean;
  /** Longer than 72 bytes. */
  tooLong: boolean;
  /** A confirmation was typed and differs from the password. */
  mismatch: boolean;
  /** The server will take the length, and the confirmation (if any) equals the password. */
  ok: boolean;
}

/** Checks a password against the minimum length; `confirm` is null for forms without a confirmation field. */
export function checkPassword(password: string, confirm: string | null, minLength: number): PasswordCheck {
  const bytes = new TextEncoder().encode(password).length;
  const tooShort = bytes > 0 && bytes < Math.max(minLength, 1);
  const tooLong = bytes > MAX_PASSWORD_BYTES;
  const mismatch = confirm !== null && confirm !== "" && confirm !== password;
  const ok = bytes > 0 && !tooShort && !tooLong && (confirm === null || confirm === password);
  return { tooShort, tooLong, mismatch, ok };
}
