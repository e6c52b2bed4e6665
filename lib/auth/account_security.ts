/**
 * The account-security requests of the profile and the user editor: two-factor enrolment, its confirmation, its
 * removal (own, or an admin's reset) and app-password creation. Each change re-authenticates the requester
 * (lib/auth/reauth.ts); codes are throttled in the same "reauth" counters as current passwords. An account whose
 * password is locked (an account the admin manages, often shared) adds neither an authenticator nor app
 * passwords: one person holding such a secret could lock the others out, or keep a way in the admin cannot see.
 */
import type { AuthMethod } from "../../config.ts";
import { BadRequestError, ForbiddenError } from "../errors.ts";
import { sessions, users } from "../storage/mod.ts";
import type { AppPasswordInfo, NewAppPassword, StoredUser, TwoFactorEnrollment } from "../types.ts";
import {
  createAppPassword,
  deleteAllAppPasswords,
  deleteAppPassword,
  listAppPasswords,
} from "./app_passwords.ts";
import { checkCurrentPassword } from "./reauth.ts";
import type { Throttle } from "./throttle.ts";
import {
  confirmEnrollment,
  deleteTwoFactor,
  hasTwoFactor,
  startEnrollment,
  verifySecondFactorWithin,
} from "./twofa.ts";

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

/** 403 for an account whose password is locked: it adds no authenticator and no app password of its own. */
function refuseLocked(requester: StoredUser): void {
  if (requester.lockPassword) throw new ForbiddenError("password_locked");
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
  refuseLocked(requester);
  await checkCurrentPassword(requester, body, reauthOf(options));
  return await startEnrollment(options.kv, requester, { issuer: options.issuer, now: options.reauth.now });
}

/** What confirming an enrolment answers. */
export interface ConfirmedTwoFactor {
  /** The ten recovery codes, shown once. */
  recoveryCodes: string[];
  /** How many other sessions of the user were ended (`endOtherSessions`). */
  sessionsEnded: number;
}

/**
 * Confirms the requester's enrolment with a code of the new secret; returns the recovery codes. With
 * `endOtherSessions: true` in the body, every other session of the user ends (the one of `sessionId` stays): a
 * session opened with the password alone, perhaps by whoever made the owner turn two-factor login on.
 */
export async function confirmTwoFactor(
  requester: StoredUser,
  body: Record<string, unknown>,
  options: AccountSecurityOptions & { sessionId?: string },
): Promise<ConfirmedTwoFactor> {
  refuseLocked(requester);
  const code = str(body, "code");
  const endOthers = body.endOtherSessions ?? false;
  if (typeof endOthers !== "boolean") {
    throw new BadRequestError(`"endOtherSessions" must be a boolean`, { code: "bad_type" });
  }
  let codes: string[] | null = null;
  await checkCode(requester, options, async () => {
    codes = await confirmEnrollment(options.kv, requester.id, { code, now: options.reauth.now });
    return codes !== null;
  });
  const sessionsEnded = endOthers
    ? await sessions.deleteUserSessions(options.kv, requester.id, { exceptId: options.sessionId })
    : 0;
  return { recoveryCodes: codes!, sessionsEnded };
}

/** Checks the requester's own one-time or recovery code in `body.code`, spending the account's budget if wrong. */
async function checkOwnCode(
  requester: StoredUser,
  body: Record<string, unknown>,
  options: AccountSecurityOptions,
): Promise<void> {
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
}

/** Turns the requester's two-factor login off: current password plus a TOTP or recovery code. */
export async function disableTwoFactor(
  requester: StoredUser,
  body: Record<string, unknown>,
  options: AccountSecurityOptions,
): Promise<void> {
  await checkCurrentPassword(requester, body, reauthOf(options));
  await checkOwnCode(requester, body, options);
  await deleteTwoFactor(options.kv, requester.id);
}

/**
 * An admin turns a user's two-factor login off (the admin's own current password required) and revokes the
 * user's app passwords, which were made under the factor now gone. Resetting their own needs a code as well, as
 * turning it off in the profile does: else a stolen admin session plus the password would remove the second
 * factor it is there to demand.
 */
export async function resetTwoFactor(
  requester: StoredUser,
  targetId: number,
  body: Record<string, unknown>,
  options: AccountSecurityOptions,
): Promise<void> {
  if (!requester.perm.admin) throw new ForbiddenError("admin_only");
  await checkCurrentPassword(requester, body, reauthOf(options));
  await users.getUser(options.kv, targetId);
  if (targetId === requester.id && await hasTwoFactor(options.kv, targetId)) {
    await checkOwnCode(requester, body, options);
  }
  await deleteTwoFactor(options.kv, targetId);
  await deleteAllAppPasswords(options.kv, targetId);
}

/** Creates an app password for the requester (current password required). */
export async function createAppPasswordFor(
  requester: StoredUser,
  body: Record<string, unknown>,
  options: AccountSecurityOptions,
): Promise<NewAppPassword> {
  refuseLocked(requester);
  await checkCurrentPassword(requester, body, reauthOf(options));
  return await createAppPassword(options.kv, requester.id, {
    name: str(body, "name"),
    now: options.reauth.now,
  });
}

/** The app passwords of a user, for an admin (the user editor); 404 for an unknown user. */
export async function listUserAppPasswords(
  kv: Deno.Kv,
  requester: StoredUser,
  targetId: number,
): Promise<AppPasswordInfo[]> {
  if (!requester.perm.admin) throw new ForbiddenError("admin_only");
  await users.getUser(kv, targetId);
  return await listAppPasswords(kv, targetId);
}

/**
 * An admin revokes one app password of a user (`id`), or all of them (`id` null), ending the sessions they
 * opened; returns how many were revoked. 404 for an unknown user or app password.
 */
export async function revokeUserAppPasswords(
  kv: Deno.Kv,
  requester: StoredUser,
  target: { userId: number; id: string | null },
): Promise<number> {
  if (!requester.perm.admin) throw new ForbiddenError("admin_only");
  await users.getUser(kv, target.userId);
  if (target.id === null) return await deleteAllAppPasswords(kv, target.userId);
  await deleteAppPassword(kv, target.userId, target.id);
  return 1;
}
