/** Users: provisioning, the wire shape, `which`-based updates (docs/api.md#users) and deletion rules. */
import type { AuthMethod } from "../config.ts";
import { BadRequestError, ForbiddenError } from "./errors.ts";
import { checkPasswordPolicy, hashPassword } from "./auth/passwords.ts";
import { deleteTwoFactor } from "./auth/twofa.ts";
import { deleteAllAppPasswords } from "./auth/app_passwords.ts";
import { checkCurrentPassword } from "./auth/reauth.ts";
import { removeUserLocks } from "./webdav/locks.ts";
import type { Throttle } from "./auth/throttle.ts";
import type { Settings, StoredUser, User } from "./types.ts";
import { PERMISSION_NAMES } from "./types.ts";
import {
  ADMIN_ONLY_FIELDS,
  applyField,
  normalizePerm,
  parseWhich,
  SECURITY_FIELDS,
  str,
  USER_FIELDS,
  type UserField,
} from "./user_fields.ts";
import { normalizeUsername } from "./usernames.ts";
import { canonicalPath as cleanPath, cleanVpath, isSameOrInside, joinVpath } from "./fs/path.ts";
import { ensureDirBeneath, lstatOrNull, pinEntry, pinObject, statSync } from "./fs/floor.ts";
import { sessions, users } from "./storage/mod.ts";

export { normalizePerm } from "./user_fields.ts";
/** Lexically cleans a scope path into `/`-absolute form (lib/fs/path.ts: "" and "." become "/"). */
export { cleanPath };

/** Cleans a username into a directory name (as filebrowser does); throws on an unusable result. */
export function homeDirName(username: string): string {
  const name = username.trim().replaceAll("..", "").replace(/[^0-9A-Za-z@_\-.]/g, "-").replace(/-+/g, "-");
  if (name === "" || name === "-" || name === ".") {
    throw new BadRequestError(`cannot derive a home directory from "${username}"`);
  }
  return name;
}

/** The derived home scope of a user. */
export function homeScope(settings: Settings, username: string): string {
  return cleanPath(`${settings.userHomeBasePath}/${homeDirName(username)}`);
}

function scopeOutsideRoot(scope: string): ForbiddenError {
  return new ForbiddenError(
    "scope_outside_root",
    `Cannot use the scope "${scope}": it leads outside the files root through a link`,
  );
}

/**
 * Creates the scope directory under the server root (and the root itself when missing). Existing folders are
 * taken where they really are: a link on the way that stays inside the files root is followed, as the gate
 * follows it; one that leads outside (or nowhere) is refused with 403 `scope_outside_root`. The missing folders
 * are made through the disk floor (lib/fs/floor.ts), one at a time in a pinned parent, so none is ever created
 * through a link swapped in meanwhile.
 */
export async function ensureScopeDir(root: string, scope: string): Promise<void> {
  // floor-exempt: the files root itself (the administrator's path), made like before when it is missing.
  await Deno.mkdir(root, { recursive: true });
  // floor-exempt: the files root's real path, the floor's anchor.
  const rootReal = await Deno.realPath(root);
  const segments = cleanVpath("/" + scope).path.split("/").filter((s) => s !== "");
  let at = rootReal;
  let i = 0;
  for (; i < segments.length; i++) {
    const next = joinVpath(at, segments[i]);
    let info: Deno.FileInfo | null;
    {
      using entry = pinEntry(rootReal, next);
      info = await lstatOrNull(entry);
    }
    if (info === null) break;
    if (!info.isSymlink) {
      at = next;
      continue;
    }
    // floor-exempt: where an existing link leads, only accepted beneath the root; nothing is made through it.
    const real = await Deno.realPath(next).catch(() => null);
    if (real === null || !isSameOrInside(rootReal, real)) throw scopeOutsideRoot(scope);
    at = real;
  }
  const dir = segments.slice(i).reduce(joinVpath, at);
  // Deno.mkdir's default mode, as before (the umask narrows it).
  ensureDirBeneath(rootReal, dir, 0o777);
  using made = pinObject(rootReal, dir);
  if (!statSync(made).isDirectory) {
    throw new Deno.errors.AlreadyExists(`Cannot use the scope "${scope}": not a folder`);
  }
}

/** The wire form of a user; password always "", scope hidden from non-admins reading themselves. */
export function toWireUser(u: StoredUser, options: { viewerIsAdmin: boolean }): User {
  return {
    id: u.id,
    username: u.username,
    password: "",
    scope: options.viewerIsAdmin ? u.scope : "",
    locale: u.locale,
    lockPassword: u.lockPassword,
    viewMode: u.viewMode || "list",
    singleClick: u.singleClick,
    redirectAfterCopyMove: u.redirectAfterCopyMove,
    perm: { ...u.perm },
    commands: u.commands ?? [],
    sorting: { by: u.sorting?.by || "name", asc: !!u.sorting?.asc },
    rules: u.rules ?? [],
    hideDotfiles: u.hideDotfiles,
    webdav: u.webdav !== false,
    dateFormat: u.dateFormat,
    aceEditorTheme: u.aceEditorTheme,
    theme: u.theme ?? "",
    quota: u.quota ?? 0,
  };
}

/** A new stored user built from the settings defaults. */
export function userFromDefaults(
  settings: Settings,
  username: string,
  passwordHash: string,
): Omit<StoredUser, "id"> {
  const d = settings.defaults;
  return {
    username,
    passwordHash,
    scope: d.scope,
    locale: d.locale,
    lockPassword: false,
    viewMode: d.viewMode || "list",
    singleClick: d.singleClick,
    redirectAfterCopyMove: d.redirectAfterCopyMove,
    perm: { ...d.perm },
    commands: [...d.commands],
    sorting: { by: d.sorting.by || "name", asc: d.sorting.asc },
    rules: [],
    hideDotfiles: d.hideDotfiles,
    dateFormat: d.dateFormat,
    aceEditorTheme: d.aceEditorTheme,
    theme: "",
    sessionEpoch: 0,
  };
}

/** Options of provisionUser. */
export interface ProvisionOptions {
  kv: Deno.Kv;
  root: string;
  settings: Settings;
  minPasswordLength: number;
  /** "signup" and "proxy" clamp admin/execute whatever the defaults say. */
  source: "signup" | "proxy" | "first";
}

/** Creates a self-registered, proxy-provisioned or first user with the defaults and a home dir if configured. */
export async function provisionUser(
  username: string,
  password: string,
  options: ProvisionOptions,
): Promise<StoredUser> {
  if (!username.trim()) throw new BadRequestError();
  // Proxy names come from a trusted header and must match it exactly; the others are typed by people.
  if (options.source !== "proxy") {
    username = normalizeUsername(username);
    checkPasswordPolicy(password, options.minPasswordLength);
  }
  const data = userFromDefaults(options.settings, username, await hashPassword(password));
  let derived: string | undefined;
  if (options.source === "first") {
    data.perm = normalizePerm({}, data.perm);
    for (const k of PERMISSION_NAMES) data.perm[k] = true;
    data.scope = "/";
    data.sorting = { by: "name", asc: false };
  } else {
    // Self-registration never grants admin or command execution, whatever the defaults say.
    data.perm.admin = false;
    data.perm.execute = false;
    data.commands = [];
    data.lockPassword = options.source === "proxy";
    if (options.settings.createUserDir) data.scope = derived = homeScope(options.settings, username);
  }
  data.scope = cleanPath(data.scope);
  await ensureScopeDir(options.root, data.scope);
  return await users.createUser(options.kv, data, { derivedScope: derived });
}

/** Options of updateUserFields. */
export interface UpdateOptions {
  kv: Deno.Kv;
  requester: StoredUser;
  minPasswordLength: number;
  /** With "json", security fields need the requester's `current_password`. */
  authMethod: AuthMethod;
  /** The requester's current session: kept when they change their own password. */
  sessionId?: string;
  /** Throttles wrong current passwords like logins (absent in unit tests). */
  reauthThrottle?: ReauthThrottle;
}

/**
 * Applies a PUT /api/users/{id} body; enforces self/admin rules, re-authentication for security fields, password
 * lock, policy and last-admin. Nothing is written when a check fails.
 */
export async function updateUserFields(
  id: number,
  body: Record<string, unknown>,
  options: UpdateOptions,
): Promise<StoredUser> {
  const { requester, kv } = options;
  const isAdmin = requester.perm.admin;
  if (!isAdmin && requester.id !== id) throw new ForbiddenError();
  const which = parseWhich(body.which);
  const fields: UserField[] = which === "all" ? [...USER_FIELDS] : which;
  // Refusals that cost nothing come before the password check (a bcrypt run).
  if (which === "all" && !isAdmin) throw new ForbiddenError();
  if (!isAdmin) {
    if (fields.some((f) => ADMIN_ONLY_FIELDS.includes(f))) throw new ForbiddenError();
    if (fields.includes("password") && requester.lockPassword) throw new ForbiddenError("password_locked");
  }
  // A stolen token must not be enough to take the account over: changing who someone is or what they may do needs
  // the requester's password. An empty `which` is a full replace too (upstream skips the check there).
  if (fields.some((f) => SECURITY_FIELDS.includes(f))) {
    await checkCurrentPassword(requester, body, {
      authMethod: options.authMethod,
      throttle: options.reauthThrottle,
    });
  }
  const data = (body.data && typeof body.data === "object" ? body.data : {}) as Record<string, unknown>;
  if (data.id !== undefined && Number(data.id) !== id) throw new BadRequestError();
  if (fields.includes("perm")) {
    const perm = normalizePerm(data.perm);
    if (perm.share && !perm.download) {
      throw new BadRequestError("permission to share requires permission to download");
    }
  }
  // Compute the new record outside the retry loop (bcrypt is slow), then commit with a CAS loop.
  const current = await users.getUser(kv, id);
  const draft = structuredClone(current);
  for (const f of fields) await applyField(draft, f, data, options.minPasswordLength);
  const securityChange = fields.some((f) =>
    SECURITY_FIELDS.includes(f) && (f !== "password" || str(data.password) !== "")
  );
  if (current.perm.admin && !draft.perm.admin) await assertNotLastAdmin(kv, id);
  const saved = await users.mutateUser(kv, id, (u) => {
    const next = { ...u };
    for (const f of fields) {
      if (f === "password") next.passwordHash = draft.passwordHash;
      else (next as Record<string, unknown>)[f] = draft[f as keyof StoredUser];
    }
    if (securityChange) next.sessionEpoch = (u.sessionEpoch ?? 0) + 1;
    next.updatedAt = Date.now();
    return next;
  });
  if (securityChange) {
    // Revoke every other session of that user at once; the requester keeps theirs when changing themself.
    const keep = requester.id === id ? options.sessionId : undefined;
    await sessions.deleteUserSessions(kv, id, { exceptId: keep });
    if (keep) await sessions.restampSession(kv, keep, saved.sessionEpoch, Date.now());
  }
  // A new password ends the app passwords too (and the sessions they opened, the requester's own included):
  // a password change is how an owner takes a leaked account back.
  if (fields.includes("password") && str(data.password) !== "") await deleteAllAppPasswords(kv, id);
  return saved;
}

async function assertNotLastAdmin(kv: Deno.Kv, id: number): Promise<void> {
  const admins = (await users.listUsers(kv)).filter((u) => u.perm.admin && u.id !== id);
  if (admins.length === 0) throw new ForbiddenError("last_admin", "the last admin cannot lose admin rights");
}

/** Options of deleteUserAccount and createUserByAdmin. */
export interface AccountRequestOptions {
  kv: Deno.Kv;
  requester: StoredUser;
  /** The request body: `current_password` is checked with "json" auth. */
  body: Record<string, unknown>;
  authMethod: AuthMethod;
  /** Throttles wrong current passwords like logins (absent in unit tests). */
  reauthThrottle?: ReauthThrottle;
}

/** The throttle of current-password checks and the client it counts for. */
export type ReauthThrottle = { throttle: Throttle; client: string; now: number };

/** Deletes a user (self or admin, re-authenticated), protecting the last admin, and revokes their sessions. */
export async function deleteUserAccount(id: number, options: AccountRequestOptions): Promise<void> {
  if (!options.requester.perm.admin && options.requester.id !== id) throw new ForbiddenError();
  await checkCurrentPassword(options.requester, options.body, {
    authMethod: options.authMethod,
    throttle: options.reauthThrottle,
  });
  const target = await users.getUser(options.kv, id);
  if (target.perm.admin) await assertNotLastAdmin(options.kv, id);
  await users.deleteUser(options.kv, id);
  await sessions.deleteUserSessions(options.kv, id);
  await deleteTwoFactor(options.kv, id);
  await deleteAllAppPasswords(options.kv, id);
  await removeUserLocks(options.kv, id);
}

/** Creates a user from an admin's (re-authenticated) POST /api/users body. */
export async function createUserByAdmin(
  options: AccountRequestOptions & { root: string; settings: Settings; minPasswordLength: number },
): Promise<StoredUser> {
  const body = options.body;
  // An admin token alone must not be enough to create (admin) accounts.
  await checkCurrentPassword(options.requester, body, {
    authMethod: options.authMethod,
    throttle: options.reauthThrottle,
  });
  if (Array.isArray(body.which) && body.which.length > 0) throw new BadRequestError();
  const data = (body.data && typeof body.data === "object" ? body.data : {}) as Record<string, unknown>;
  const password = str(data.password);
  if (!password) throw new BadRequestError("password is empty");
  const username = normalizeUsername(str(data.username));
  const perm = normalizePerm(data.perm);
  if (perm.share && !perm.download) {
    throw new BadRequestError("permission to share requires permission to download");
  }
  checkPasswordPolicy(password, options.minPasswordLength);
  const u = userFromDefaults(options.settings, username, "");
  for (const f of USER_FIELDS) {
    if (f !== "password" && f !== "username" && data[f] !== undefined) {
      await applyField(u as StoredUser, f, data, 0);
    }
  }
  u.passwordHash = await hashPassword(password);
  let derived: string | undefined;
  const scope = str(data.scope).trim();
  if (scope) u.scope = cleanPath(scope);
  else if (options.settings.createUserDir) u.scope = derived = homeScope(options.settings, username);
  else u.scope = "/";
  await ensureScopeDir(options.root, u.scope);
  return await users.createUser(options.kv, u, { derivedScope: derived });
}
