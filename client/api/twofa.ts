// This module is browser-compatible.
/** Two-factor login: `/api/twofa` (state, enrolment, confirmation, turning off) and an admin's reset. */
import type { TwoFactorEnrollment, TwoFactorStatus } from "../../lib/types.ts";
import { ApiError, apiJson, apiSend } from "./http.ts";

/** True when a failed login asks for a two-factor code (401 with `X-2FA-Required`). */
export function isTwoFactorChallenge(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401 && !!err.headers.get("X-2FA-Required");
}

/** The requester's two-factor state. */
export function getTwoFactor(): Promise<TwoFactorStatus> {
  return apiJson<TwoFactorStatus>("/twofa");
}

/** Starts an enrolment (current password); returns the secret and its otpauth URI. */
export function startTwoFactor(currentPassword: string): Promise<TwoFactorEnrollment> {
  return apiJson<TwoFactorEnrollment>("/twofa/enroll", {
    method: "POST",
    json: { current_password: currentPassword },
  });
}

/**
 * Confirms the enrolment with a code; returns the ten recovery codes (shown once). With `endOtherSessions`, the
 * user's other sessions end.
 */
export async function confirmTwoFactor(
  code: string,
  options: { endOtherSessions?: boolean } = {},
): Promise<string[]> {
  const answer = await apiJson<{ recoveryCodes: string[] }>("/twofa/confirm", {
    method: "POST",
    json: { code, endOtherSessions: options.endOtherSessions ?? false },
  });
  return answer.recoveryCodes;
}

/** Turns two-factor login off (current password and a code). */
export async function disableTwoFactor(currentPassword: string, code: string): Promise<void> {
  await apiSend("/twofa/disable", { method: "POST", json: { current_password: currentPassword, code } });
}

/** An admin turns a user's two-factor login off (the admin's current password) and revokes their app passwords. */
export async function resetTwoFactor(userId: number, currentPassword: string): Promise<void> {
  await apiSend(`/users/${userId}/twofa`, { method: "DELETE", json: { current_password: currentPassword } });
}
