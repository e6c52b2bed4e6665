/**
 * The account-security requests of the profile and the user editor: two-factor enrolment, its confirmation, its
 * removal (own, or an admin's reset) and app-password creation. Each change re-authenticates the requester
 * (lib/auth/reauth.ts); codes are throttled in the same "reauth" counters as current passwords.
 */
import type { AuthMethod } from "../../config.ts";
import { BadRequestError, ForbiddenError } from "../errors.ts";
import { users } from "../storage/mod.ts";
import type { NewAppPassword, StoredUser, TwoFactorEnrollment } from "../types.ts";
import { createAppPassword } from "./app_passwords.ts";
import { checkCurrentPassword } from "./reauth.ts";
import type { Throttle } from "./throttle.ts";
import { confirmEnrollment, deleteTwoFactor, startEnrollment, verifySecondFactorWithin } from "./twofa.ts";

/** What every account-security request needs besides its body. */
export interface AccountSecurityOptions {
  kv: Deno.Kv;
  authMethod: AuthMethod;
  /** The re-authentication throttle of this request. */
  reauth: { throttle: Throttle; client: string; now: number };
  /** The per-account budget of wrong one-time codes (AppDeps.throttles.secondFactor). */
  secondFactor: Throttle;
}

function str(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  if (v === undefined || v === null) return "";
  if (typeof v !== "string") throw new BadRequestError(`"${key}" must be a string`, { code: "bad_type" });
  return v;
}

function reauthOf(options: AccountSecurityOptions) {
  return { authMethod: options.authMethod, throttle: options.reauth };
}

/** A code check that takes a reauth slot first and gives it back only when the code is right. */
async function checkCode(
  requester: StoredUser,
  options: AccountSecurityOptions,
  check: () => Promise<boolean>,
): Promise<void> {
  const { throttle, client, now } = options.reauth;
  const slot = await throttle.reserve(client, `user:${requester.id}`, now);
  if (!await check()) throw new BadRequestError("the code is incorrect", { code: "otp_incorrect" });
  await slot.release();
}

/** Starts a two-factor enrolment for the requester (current password required). */
export async function enrollTwoFactor(
  requester: StoredUser,
  body: Record<string, unknown>,
  options: AccountSecurityOptions & { issuer: string },
): Promise<TwoFactorEnrollment> {
  await checkCurrentPassword(requester, body, reauthOf(options));
  return await startEnrollment(options.kv, requester, { issuer: options.issuer, now: options.reauth.now });
}

/** Confirms the requester's enrolment with a code of the new secret; returns the recovery codes. */
export async function confirmTwoFactor(
  requester: StoredUser,
  body: Record<string, unknown>,
  options: AccountSecurityOptions,
): Promise<string[]> {
  const code = str(body, "code");
  let codes: string[] | null = null;
  await checkCode(requester, options, async () => {
    codes = await confirmEnrollment(options.kv, requester.id, { code, now: options.reauth.now });
    return codes !== null;
  });
  return codes!;
}

/** Turns the requester's two-factor login off: current password plus a TOTP or recovery code. */
export async function disableTwoFactor(
  requester: StoredUser,
  body: Record<string, unknown>,
  options: AccountSecurityOptions,
): Promise<void> {
  await checkCurrentPassword(requester, body, reauthOf(options));
  const code = str(body, "code");
  await checkCode(
    requester,
    options,
    () =>
      verifySecondFactorWithin(options.kv, options.secondFactor, requester.id, {
        code,
        now: options.reauth.now,
      }),
  );
  await deleteTwoFactor(options.kv, requester.id);
}

/** An admin turns a user's two-factor login off (the admin's own current password required). */
export async function resetTwoFactor(
  requester: StoredUser,
  targetId: number,
  body: Record<string, unknown>,
  options: AccountSecurityOptions,
): Promise<void> {
  if (!requester.perm.admin) throw new ForbiddenError("admin_only");
  await checkCurrentPassword(requester, body, reauthOf(options));
  await users.getUser(options.kv, targetId);
  await deleteTwoFactor(options.kv, targetId);
}

/** Creates an app password for the requester (current password required). */
export async function createAppPasswordFor(
  requester: StoredUser,
  body: Record<string, unknown>,
  options: AccountSecurityOptions,
): Promise<NewAppPassword> {
  await checkCurrentPassword(requester, body, reauthOf(options));
  return await createAppPassword(options.kv, requester.id, {
    name: str(body, "name"),
    now: options.reauth.now,
  });
}
