/**
 * Hook authentication (`--auth hook`, docs/commands.md): the admin's `--auth-command` decides each login. It gets the
 * credentials in `USERNAME`/`PASSWORD` (never in its arguments; the username only once it passed the username
 * rules) and answers with `key=value` lines: `hook.action`
 * (`auth`: create or update the user from the `user.*` keys and accept; `pass`: check the stored password;
 * `block`: refuse). The command is the server admin's own program, started like the server itself: it runs
 * without the sandbox (it may need the network or a user database) but with the small environment, no stdin,
 * a time limit and capped output.
 */
import { ConflictError, ForbiddenError, HttpError } from "../errors.ts";
import { log } from "../log.ts";
import { commandEnv, type ExecEnv, runCommand } from "../runner/run.ts";
import { splitWords } from "../runner/words.ts";
import { users } from "../storage/mod.ts";
import type { Permissions, Settings, StoredUser } from "../types.ts";
import { PERMISSION_NAMES } from "../types.ts";
import { cleanPath, ensureScopeDir, homeScope, userFromDefaults } from "../users.ts";
import { normalizeUsername } from "../usernames.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";

const AUTH_EXEC: ExecEnv = {
  sandbox: null,
  network: true,
  limits: { timeoutMs: 30_000, maxProcesses: 64, maxMemory: 1024 ** 3, maxLines: 1000, maxBytes: 64 * 1024 },
};

const STRING_KEYS = ["user.scope", "user.locale", "user.viewMode", "user.sorting.by", "user.commands"];
const BOOL_KEYS = [
  "user.singleClick",
  "user.redirectAfterCopyMove",
  "user.hideDotfiles",
  "user.sorting.asc",
  ...PERMISSION_NAMES.map((p) => `user.perm.${p}`),
];

/** What the command answered: the action and the recognised `user.*` keys. */
export interface HookAnswer {
  action: string;
  fields: Map<string, string>;
}

/** Parses `key=value` lines (CRLF tolerated, whitespace trimmed, unknown keys and other lines ignored). */
export function parseHookOutput(lines: string[]): HookAnswer {
  const fields = new Map<string, string>();
  let action = "";
  for (const raw of lines) {
    const eq = raw.indexOf("=");
    if (eq < 0) continue;
    const key = raw.slice(0, eq).trim();
    const value = raw.slice(eq + 1).trim();
    if (key === "hook.action") action = value;
    else if (STRING_KEYS.includes(key) || BOOL_KEYS.includes(key)) fields.set(key, value);
  }
  return { action, fields };
}

/** Applies the hook's `user.*` fields onto a user record (booleans: exactly "true" is true; admin grants all). */
export function applyHookFields(u: Omit<StoredUser, "id">, fields: Map<string, string>): void {
  const str = (k: string) => fields.get(k);
  const bool = (k: string) => fields.has(k) ? fields.get(k) === "true" : undefined;
  if (str("user.scope") !== undefined) u.scope = cleanPath(str("user.scope")!);
  if (str("user.locale") !== undefined) u.locale = str("user.locale")!;
  if (str("user.viewMode") !== undefined) u.viewMode = str("user.viewMode")!;
  if (str("user.commands") !== undefined) u.commands = str("user.commands")!.split(" ").filter(Boolean);
  if (str("user.sorting.by") !== undefined) u.sorting = { ...u.sorting, by: str("user.sorting.by")! };
  if (bool("user.sorting.asc") !== undefined) u.sorting = { ...u.sorting, asc: bool("user.sorting.asc")! };
  for (const k of ["singleClick", "redirectAfterCopyMove", "hideDotfiles"] as const) {
    const v = bool(`user.${k}`);
    if (v !== undefined) u[k] = v;
  }
  const perm: Permissions = { ...u.perm };
  for (const p of PERMISSION_NAMES) {
    const v = bool(`user.perm.${p}`);
    if (v !== undefined) perm[p] = v;
  }
  if (perm.admin) { for (const p of PERMISSION_NAMES) perm[p] = true; }
  u.perm = perm;
}

/** What a hook login needs. */
export interface HookLoginDeps {
  kv: Deno.Kv;
  root: string;
  settings: Settings;
  command: string;
}

async function askHook(deps: HookLoginDeps, username: string, password: string): Promise<HookAnswer> {
  const argv = splitWords(deps.command);
  const r = await runCommand(AUTH_EXEC, {
    argv,
    scope: deps.root,
    cwd: deps.root,
    env: commandEnv(deps.root, { USERNAME: username, PASSWORD: password }),
  });
  if (r.stop !== "exit" || r.code !== 0) {
    // The output is not logged: a script may echo the password.
    log.warn(`auth hook refused "${username}": ${r.stop === "exit" ? `exit ${r.code}` : r.stop}`);
    throw new ForbiddenError("hook_refused");
  }
  return parseHookOutput(r.lines);
}

async function createHookUser(deps: HookLoginDeps, username: string, password: string, answer: HookAnswer) {
  const data = userFromDefaults(deps.settings, username, await hashPassword(password));
  // Like proxy users: no admin, no commands and a locked password unless the hook says otherwise.
  data.perm = { ...data.perm, admin: false, execute: false };
  data.commands = [];
  data.lockPassword = true;
  let derived: string | undefined;
  if (!answer.fields.has("user.scope") && deps.settings.createUserDir) {
    data.scope = derived = homeScope(deps.settings, username);
  }
  applyHookFields(data, answer.fields);
  data.scope = cleanPath(data.scope);
  await ensureScopeDir(deps.root, data.scope);
  return await users.createUser(deps.kv, data, { derivedScope: derived });
}

async function updateHookUser(deps: HookLoginDeps, user: StoredUser, password: string, answer: HookAnswer) {
  const samePassword = await verifyPassword(password, user.passwordHash);
  if (samePassword && answer.fields.size === 0) return user;
  const hash = samePassword ? user.passwordHash : await hashPassword(password);
  const draft = structuredClone(user);
  applyHookFields(draft, answer.fields);
  if (answer.fields.has("user.scope")) await ensureScopeDir(deps.root, draft.scope);
  return await users.mutateUser(deps.kv, user.id, (u) => {
    applyHookFields(u, answer.fields);
    return { ...u, passwordHash: hash, updatedAt: Date.now() };
  });
}

/**
 * The username a hook may see: the username rules (lib/usernames.ts) hold before the command runs, so a name
 * with a line break cannot add `key=value` lines to the answer of a script that echoes it, and the hook sees
 * the NFC form the user will be stored under. Anything else is refused (403) without running the hook.
 */
function hookUsername(raw: string): string {
  if (!raw.trim()) throw new ForbiddenError("wrong_credentials");
  try {
    return normalizeUsername(raw);
  } catch (err) {
    log.warn(
      `auth hook not asked: the username ${JSON.stringify(raw)} breaks the username rules (${
        (err as Error).message
      })`,
    );
    throw new ForbiddenError("username_invalid");
  }
}

/** Authenticates through the hook; returns the (created or updated) user or throws 403/500. */
export async function hookLogin(
  deps: HookLoginDeps,
  rawUsername: string,
  password: string,
): Promise<StoredUser> {
  const username = hookUsername(rawUsername);
  const answer = await askHook(deps, username, password);
  switch (answer.action) {
    case "block":
      throw new ForbiddenError("hook_blocked");
    case "pass": {
      const user = await users.findUserByName(deps.kv, username);
      const ok = await verifyPassword(password, user?.passwordHash ?? null);
      if (!user || !ok) throw new ForbiddenError("wrong_credentials");
      return user;
    }
    case "auth": {
      const user = await users.findUserByName(deps.kv, username);
      if (user) return await updateHookUser(deps, user, password, answer);
      try {
        return await createHookUser(deps, username, password, answer);
      } catch (err) {
        // A parallel first login created the user a moment ago: update it instead.
        const again = err instanceof ConflictError ? await users.findUserByName(deps.kv, username) : null;
        if (!again) throw err;
        return await updateHookUser(deps, again, password, answer);
      }
    }
    default:
      log.error(`auth hook answered an unknown action for "${username}": ${JSON.stringify(answer.action)}`);
      throw new HttpError(500, "hook_bad_action");
  }
}
