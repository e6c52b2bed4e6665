/**
 * Account administration from the command line (`deno task users`): the way back in when no admin can log in.
 * Same rules as the HTTP API (username rules, password policy, last admin), without a requester to re-authenticate:
 * whoever can run it can already write the database file.
 */
import type { Config } from "../config.ts";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.ts";
import { checkPasswordPolicy, hashPassword } from "./auth/passwords.ts";
import { defaultSettings, normalizeSettings } from "./settings.ts";
import { sessions, Store, users } from "./storage/mod.ts";
import type { Settings, StoredUser } from "./types.ts";
import { PERMISSION_NAMES } from "./types.ts";
import { cleanPath, ensureScopeDir, homeScope, userFromDefaults } from "./users.ts";
import { normalizeUsername } from "./usernames.ts";
import { audit } from "./audit/mod.ts";
import { deleteAllAppPasswords } from "./auth/app_passwords.ts";
import { deleteTwoFactor } from "./auth/twofa.ts";
import { removeUserLocks } from "./webdav/locks.ts";

/** What `add` and `update` may set. */
export interface AccountChanges {
  password?: string;
  admin?: boolean;
  scope?: string;
}

/** The database and folders the command works on, plus the admin-editable settings read from the database. */
export interface AccountContext {
  kv: Deno.Kv;
  config: Readonly<Config>;
  settings: Settings;
}

/** Reads the settings for an account command (the defaults when the server never started on this database). */
export async function accountContext(kv: Deno.Kv, config: Readonly<Config>): Promise<AccountContext> {
  const stored = await new Store(kv).findSettings();
  const settings = stored
    ? normalizeSettings(stored)
    : defaultSettings({ authMethod: config.authMethod, minPasswordLength: config.minPasswordLength });
  return { kv, config, settings };
}

/** Records a change in the audit log, as made from the command line (no user, client "cli"). */
async function recorded(
  ctx: AccountContext,
  action: string,
  user: StoredUser,
  detail: string,
): Promise<void> {
  const deps = { kv: ctx.kv, config: ctx.config, now: Date.now };
  await audit(deps, { user: "", action, target: `user:${user.id}`, detail, client: "cli", status: 200 }, {
    logLine: false,
  });
}

async function userNamed(kv: Deno.Kv, name: string): Promise<StoredUser> {
  const user = await users.findUserByName(kv, name);
  if (!user) throw new NotFoundError("user_not_found", `No user "${name}"`);
  return user;
}

function grantAll(user: Pick<StoredUser, "perm">): void {
  for (const k of PERMISSION_NAMES) user.perm[k] = true;
}

async function assertAnotherAdmin(kv: Deno.Kv, id: number, action: string): Promise<void> {
  const others = (await users.listUsers(kv)).filter((u) => u.perm.admin && u.id !== id);
  if (others.length === 0) throw new ForbiddenError("last_admin", `Cannot ${action}: it is the last admin`);
}

/** Creates an account with the settings defaults (home directory included), or an admin with every permission. */
export async function addAccount(
  ctx: AccountContext,
  name: string,
  changes: AccountChanges & { password: string },
): Promise<StoredUser> {
  const username = normalizeUsername(name);
  checkPasswordPolicy(changes.password, ctx.settings.minimumPasswordLength);
  if (await users.findUserByName(ctx.kv, username, { exact: false })) {
    throw new ConflictError("username_taken", `Cannot add "${username}": username taken`);
  }
  const data = userFromDefaults(ctx.settings, username, await hashPassword(changes.password));
  let derived: string | undefined;
  if (changes.admin) grantAll(data);
  if (changes.scope !== undefined) data.scope = cleanPath(changes.scope);
  else if (changes.admin) data.scope = "/";
  else if (ctx.settings.createUserDir) data.scope = derived = homeScope(ctx.settings, username);
  else data.scope = cleanPath(data.scope);
  await ensureScopeDir(ctx.config.root, data.scope);
  const created = await users.createUser(ctx.kv, data, { derivedScope: derived });
  await recorded(ctx, "user.create", created, created.username);
  return created;
}

/** Changes an account's password, admin right or scope; a change revokes the account's sessions. */
export async function updateAccount(
  ctx: AccountContext,
  name: string,
  changes: AccountChanges,
): Promise<StoredUser> {
  const user = await userNamed(ctx.kv, name);
  if (changes.password !== undefined) {
    checkPasswordPolicy(changes.password, ctx.settings.minimumPasswordLength);
  }
  if (changes.admin === false && user.perm.admin) {
    await assertAnotherAdmin(ctx.kv, user.id, `demote "${name}"`);
  }
  const hash = changes.password === undefined ? undefined : await hashPassword(changes.password);
  const scope = changes.scope === undefined ? undefined : cleanPath(changes.scope);
  if (scope !== undefined) await ensureScopeDir(ctx.config.root, scope);
  const saved = await users.mutateUser(ctx.kv, user.id, (u) => {
    if (hash !== undefined) u.passwordHash = hash;
    if (changes.admin === true) grantAll(u);
    if (changes.admin === false) u.perm.admin = false;
    if (scope !== undefined) u.scope = scope;
    // Whoever held a session of this account (perhaps the reason for this command) has to log in again.
    u.sessionEpoch = (u.sessionEpoch ?? 0) + 1;
    u.updatedAt = Date.now();
    return u;
  });
  await sessions.deleteUserSessions(ctx.kv, user.id);
  // A new password ends the app passwords, as through the API.
  if (hash !== undefined) await deleteAllAppPasswords(ctx.kv, user.id);
  const fields = [
    changes.password !== undefined && "password",
    changes.admin !== undefined && "perm",
    scope !== undefined && "scope",
  ].filter(Boolean);
  await recorded(ctx, "user.update", saved, fields.join(" "));
  return saved;
}

/** Deletes an account (never the last admin), its sessions, second factor, app passwords and WebDAV locks. */
export async function removeAccount(ctx: AccountContext, name: string): Promise<void> {
  const user = await userNamed(ctx.kv, name);
  if (user.perm.admin) await assertAnotherAdmin(ctx.kv, user.id, `remove "${name}"`);
  await users.deleteUser(ctx.kv, user.id);
  await sessions.deleteUserSessions(ctx.kv, user.id);
  // As through the API: nothing of the account stays to sign in with, nor any WebDAV lock.
  await deleteTwoFactor(ctx.kv, user.id);
  await deleteAllAppPasswords(ctx.kv, user.id);
  await removeUserLocks(ctx.kv, user.id);
  await recorded(ctx, "user.delete", user, user.username);
}
