/**
 * App passwords (docs/security.md#app-passwords): per-user secrets for WebDAV clients and scripts, shown once at
 * creation and stored as SHA-256 hashes. A secret is 32 random bytes (256 bits), so a slow hash like bcrypt adds
 * nothing against guessing and would cost ~50 ms on every WebDAV request; SHA-256 costs microseconds.
 */
import { BadRequestError, ConflictError, NotFoundError } from "../errors.ts";
import { keys } from "../storage/keys.ts";
import { deleteAppPasswordSessions } from "../storage/sessions.ts";
import type { AppPasswordInfo, NewAppPassword, StoredUser } from "../types.ts";
import { constantTimeEqual, sha256Hex } from "./totp.ts";

/** An app password as stored. */
export interface StoredAppPassword {
  id: string;
  userId: number;
  name: string;
  /** SHA-256 (hex) of the secret. */
  hash: string;
  created: number;
  lastUsed: number | null;
}

/** App passwords per user. */
export const MAX_APP_PASSWORDS = 50;
/** Longest name (characters). */
export const MAX_APP_PASSWORD_NAME = 100;
// lastUsed is written at most this often: a WebDAV client sends many requests a second.
const LAST_USED_RESOLUTION_MS = 60_000;
// Every secret starts with this, so a leaked one is recognisable (e.g. by secret scanners) and never mistaken
// for an account password.
const PREFIX = "fbap_";

function toInfo(p: StoredAppPassword): AppPasswordInfo {
  return {
    id: p.id,
    name: p.name,
    created: new Date(p.created).toISOString(),
    lastUsed: p.lastUsed === null ? null : new Date(p.lastUsed).toISOString(),
  };
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function listStored(kv: Deno.Kv, userId: number): Promise<StoredAppPassword[]> {
  const out: StoredAppPassword[] = [];
  for await (const e of kv.list<StoredAppPassword>({ prefix: keys.appPasswordsPrefix(userId) })) {
    out.push(e.value);
  }
  return out.sort((a, b) => a.created - b.created || a.id.localeCompare(b.id));
}

/** The user's app passwords, oldest first (without secrets). */
export async function listAppPasswords(kv: Deno.Kv, userId: number): Promise<AppPasswordInfo[]> {
  return (await listStored(kv, userId)).map(toInfo);
}

/** Creates an app password; the returned secret is never stored and cannot be shown again. */
export async function createAppPassword(
  kv: Deno.Kv,
  userId: number,
  options: { name: string; now: number },
): Promise<NewAppPassword> {
  const name = options.name.trim();
  if (!name) throw new BadRequestError("the name is empty", { code: "app_password_name_empty" });
  if (name.length > MAX_APP_PASSWORD_NAME || /[\p{Cc}]/u.test(name)) {
    throw new BadRequestError(`the name must be at most ${MAX_APP_PASSWORD_NAME} printable characters`, {
      code: "app_password_name_invalid",
    });
  }
  if ((await listStored(kv, userId)).length >= MAX_APP_PASSWORDS) {
    throw new ConflictError("app_password_limit");
  }
  const password = PREFIX + base64url(crypto.getRandomValues(new Uint8Array(32)));
  const id = base64url(crypto.getRandomValues(new Uint8Array(9)));
  const stored: StoredAppPassword = {
    id,
    userId,
    name,
    hash: await sha256Hex(password),
    created: options.now,
    lastUsed: null,
  };
  const key = keys.appPassword(userId, id);
  const res = await kv.atomic().check({ key, versionstamp: null }).set(key, stored).commit();
  if (!res.ok) throw new ConflictError("app_password_id_taken");
  return { ...toInfo(stored), password };
}

/**
 * Revokes an app password of the user and ends the sessions it opened; 404 when it does not exist (or belongs to
 * someone else).
 */
export async function deleteAppPassword(kv: Deno.Kv, userId: number, id: string): Promise<void> {
  if (id.length > 64) throw new NotFoundError("app_password_not_found");
  const key = keys.appPassword(userId, id);
  const entry = await kv.get(key);
  if (!entry.value) throw new NotFoundError("app_password_not_found");
  // The password first: a login with it that races this revocation re-checks it after saving its session
  // (lib/auth/mod.ts), so either that check fails or the sweep below finds the session.
  await kv.delete(key);
  await deleteAppPasswordSessions(kv, userId, id);
}

/**
 * Revokes every app password of a user and ends the sessions they opened (password change, an admin's reset,
 * deletion of the account, or the owner's "revoke all"). Returns how many were revoked.
 */
export async function deleteAllAppPasswords(kv: Deno.Kv, userId: number): Promise<number> {
  let n = 0;
  for await (const e of kv.list({ prefix: keys.appPasswordsPrefix(userId) })) {
    await kv.delete(e.key);
    n++;
  }
  await deleteAppPasswordSessions(kv, userId, null);
  return n;
}

/** True while the app password exists (a login through it re-checks this once its session is saved). */
export async function hasAppPassword(kv: Deno.Kv, userId: number, id: string): Promise<boolean> {
  return (await kv.get(keys.appPassword(userId, id))).value !== null;
}

/**
 * Checks `password` against the user's app passwords and returns the one it matches (its last use updated), or
 * null. This is the check for WebDAV's Basic auth. It does not throttle: callers count failed guesses with the
 * login throttle (lib/auth/throttle.ts) like any password check.
 */
export async function verifyAppPassword(
  kv: Deno.Kv,
  user: Pick<StoredUser, "id">,
  password: string,
  options: { now?: number } = {},
): Promise<AppPasswordInfo | null> {
  if (!password.startsWith(PREFIX) || password.length > 256) return null;
  const hash = await sha256Hex(password);
  const match = (await listStored(kv, user.id)).find((p) => constantTimeEqual(p.hash, hash));
  if (!match) return null;
  const now = options.now ?? Date.now();
  if (match.lastUsed === null || now - match.lastUsed >= LAST_USED_RESOLUTION_MS) {
    const key = keys.appPassword(user.id, match.id);
    const entry = await kv.get<StoredAppPassword>(key);
    // A revocation racing with this use wins; written with a check so it cannot bring the password back.
    if (!entry.value) return null;
    await kv.atomic().check(entry).set(key, { ...entry.value, lastUsed: now }).commit();
    match.lastUsed = now;
  }
  return toInfo(match);
}
