// This module is browser-compatible.
/** API calls of the account-security cards: two-factor login and app passwords (docs/api.md#two-factor-login). */
import type { AppPasswordInfo, NewAppPassword, TwoFactorEnrollment, TwoFactorStatus } from "../lib/types.ts";
import { ApiError, apiFetch } from "./api.ts";

const JSON_HEADERS = { "Content-Type": "application/json" };

function post(body: unknown, method = "POST"): RequestInit {
  return { method, headers: JSON_HEADERS, body: JSON.stringify(body) };
}

/** True when a failed login asks for a two-factor code (401 with `X-2FA-Required`). */
export function isTwoFactorChallenge(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401 && !!err.headers.get("X-2FA-Required");
}

/** The requester's two-factor state. */
export async function getTwoFactor(): Promise<TwoFactorStatus> {
  return await (await apiFetch("/twofa")).json() as TwoFactorStatus;
}

/** Starts an enrolment (current password); returns the secret and its otpauth URI. */
export async function startTwoFactor(currentPassword: string): Promise<TwoFactorEnrollment> {
  const res = await apiFetch("/twofa/enroll", post({ current_password: currentPassword }));
  return await res.json() as TwoFactorEnrollment;
}

/** Confirms the enrolment with a code; returns the ten recovery codes (shown once). */
export async function confirmTwoFactor(code: string): Promise<string[]> {
  const res = await apiFetch("/twofa/confirm", post({ code }));
  return (await res.json() as { recoveryCodes: string[] }).recoveryCodes;
}

/** Turns two-factor login off (current password and a code). */
export async function disableTwoFactor(currentPassword: string, code: string): Promise<void> {
  const res = await apiFetch("/twofa/disable", post({ current_password: currentPassword, code }));
  await res.body?.cancel();
}

/** An admin turns a user's two-factor login off (the admin's current password). */
export async function resetTwoFactor(userId: number, currentPassword: string): Promise<void> {
  const res = await apiFetch(`/users/${userId}/twofa`, post({ current_password: currentPassword }, "DELETE"));
  await res.body?.cancel();
}

/** The requester's app passwords. */
export async function listAppPasswords(): Promise<AppPasswordInfo[]> {
  return await (await apiFetch("/apppasswords")).json() as AppPasswordInfo[];
}

/** Creates an app password; the secret in the answer is shown once. */
export async function createAppPassword(name: string, currentPassword: string): Promise<NewAppPassword> {
  const res = await apiFetch("/apppasswords", post({ name, current_password: currentPassword }));
  return await res.json() as NewAppPassword;
}

/** Revokes an app password. */
export async function deleteAppPassword(id: string): Promise<void> {
  const res = await apiFetch(`/apppasswords/${encodeURIComponent(id)}`, { method: "DELETE" });
  await res.body?.cancel();
}
