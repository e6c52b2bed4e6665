// This module is browser-compatible.
/**
 * What the password forms check before sending: the server's length rule (lib/password_rules.ts: bytes of UTF-8,
 * at least the minimum, at most 72) and that the confirmation equals the password. The server still has the last word (common passwords).
 */

import { passwordBytes, passwordLengthProblem } from "../lib/password_rules.ts";

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
  // The server's rule; an empty field is not "too short" yet, only not ok.
  const bytes = passwordBytes(password);
  const problem = passwordLengthProblem(password, minLength);
  const tooShort = bytes > 0 && problem === "too_short";
  const tooLong = problem === "too_long";
  const mismatch = confirm !== null && confirm !== "" && confirm !== password;
  const ok = bytes > 0 && !tooShort && !tooLong && (confirm === null || confirm === password);
  return { tooShort, tooLong, mismatch, ok };
}
