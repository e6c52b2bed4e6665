/** Users: provisioning, the wire shape, `which`-based updates (docs/api.md#users) and deletion rules. */
import { BadRequestError, ForbiddenError } from "./errors.ts";
import { checkPasswordPolicy, hashPassword } from "./auth/passwords.ts";
import type { Permissions, Rule, Settings, StoredUser, User } from "./types.ts";
import { PERMISSION_NAMES } from "./types.ts";
import { normalizeRules, validateRules } from "./settings.ts";
import { sessions, users } from "./storage/mod.ts";

/** Lexically cleans a path into `/`-absolute form ("" and "." become "/"). */
export function cleanPath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return "/" + out.join("/");
}

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

/** Creates the scope directory under the server root. */
export async function ensureScopeDir(root: string, scope: string): Promise<void> {
  await Deno.mkdir(root + (cleanPath(scope) === "/" ? "" : cleanPath(scope)), { recursive: true });
}

function bool(x: unknown, fallback = false): boolean {
  return typeof x === "boolean" ? x : fallback;
}

function str(x: unknown, fallback = ""): string {
  return typeof x === "string" ? x : fallback;
}

/** Normalises the `perm` object of untrusted input. */
export function normalizePerm(x: unknown, fallback?: Permissions): Permissions {
  const p = (x && typeof x === "object" ? x : {}) as Record<string, unknown>;
  const out = {} as Permissions;
  for (const k of PERMISSION_NAMES) out[k] = bool(p[k], fallback?.[k] ?? false);
  return out;
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
    dateFormat: u.dateFormat,
    aceEditorTheme: u.aceEditorTheme,
    theme: u.theme ?? "",
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
  if (options.source !== "proxy") checkPasswordPolicy(password, options.minPasswordLength);
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

const FULL_FIELDS = [
  "username",
  "password",
  "scope",
  "locale",
  "lockPassword",
  "viewMode",
  "singleClick",
  "redirectAfterCopyMove",
  "perm",
  "commands",
  "sorting",
  "rules",
  "hideDotfiles",
  "dateFormat",
  "aceEditorTheme",
  "theme",
] as const;
type Field = typeof FULL_FIELDS[number];
const ADMIN_ONLY: Field[] = ["username", "scope", "lockPassword", "perm", "commands", "rules"];
/** Fields whose change revokes the user's other sessions. */
const SECURITY_FIELDS: Field[] = [
  "username",
  "password",
  "scope",
  "lockPassword",
  "perm",
  "commands",
  "rules",
];

/** Applies one field of untrusted `data` onto a stored user. */
async function applyField(
  u: StoredUser,
  field: Field,
  data: Record<string, unknown>,
  minLen: number,
): Promise<void> {
  switch (field) {
    case "username": {
      const name = str(data.username).trim();
      if (!name) throw new BadRequestError("username is empty");
      u.username = name;
      break;
    }
    case "password": {
      const pw = str(data.password);
      if (pw === "") return;
      checkPasswordPolicy(pw, minLen);
      u.passwordHash = await hashPassword(pw);
      break;
    }
    case "scope":
      u.scope = cleanPath(str(data.scope).trim());
      break;
    case "perm":
      u.perm = normalizePerm(data.perm, u.perm);
      break;
    case "commands":
      u.commands = Array.isArray(data.commands)
        ? data.commands.filter((c): c is string => typeof c === "string" && c !== "")
        : [];
      break;
    case "rules": {
      const rules: Rule[] = normalizeRules(data.rules);
      validateRules(rules, "user rule");
      u.rules = rules;
      break;
    }
    case "sorting": {
      const s = (data.sorting && typeof data.sorting === "object" ? data.sorting : {}) as Record<
        string,
        unknown
      >;
      const by = str(s.by, "name");
      u.sorting = { by: ["name", "size", "modified"].includes(by) ? by : "name", asc: bool(s.asc) };
      break;
    }
    case "viewMode": {
      const vm = str(data.viewMode, "list");
      u.viewMode = ["list", "mosaic", "mosaic gallery"].includes(vm) ? vm : "list";
      break;
    }
    case "theme": {
      const t = str(data.theme);
      u.theme = ["", "light", "dark"].includes(t) ? t : "";
      break;
    }
    case "locale":
    case "aceEditorTheme":
      u[field] = str(data[field]);
      break;
    default:
      u[field] = bool(data[field]);
  }
}

/** Options of updateUserFields. */
export interface UpdateOptions {
  kv: Deno.Kv;
  requester: StoredUser;
  minPasswordLength: number;
  /** The requester's current session: kept when they change their own password. */
  sessionId?: string;
}

/** Parses a `which` list into field names; throws on unknown names (upstream answers 500, we answer 400). */
export function parseWhich(which: unknown): Field[] | "all" {
  if (!Array.isArray(which) || which.length === 0) return "all";
  if (which.length === 1 && which[0] === "all") return "all";
  return which.map((w) => {
    const name = String(w);
    const f = FULL_FIELDS.find((x) => x === name || x === name.charAt(0).toLowerCase() + name.slice(1));
    if (!f) throw new BadRequestError(`unknown user field "${name}"`);
    return f;
  });
}

/** Applies a PUT /api/users/{id} body; enforces self/admin rules, password lock, policy and last-admin. */
export async function updateUserFields(
  id: number,
  body: Record<string, unknown>,
  options: UpdateOptions,
): Promise<StoredUser> {
  const { requester, kv } = options;
  const isAdmin = requester.perm.admin;
  if (!isAdmin && requester.id !== id) throw new ForbiddenError();
  const data = (body.data && typeof body.data === "object" ? body.data : {}) as Record<string, unknown>;
  if (data.id !== undefined && Number(data.id) !== id) throw new BadRequestError();
  const which = parseWhich(body.which);
  const fields: Field[] = which === "all" ? [...FULL_FIELDS] : which;
  if (which === "all" && !isAdmin) throw new ForbiddenError();
  if (!isAdmin) {
    if (fields.some((f) => ADMIN_ONLY.includes(f))) throw new ForbiddenError();
    if (fields.includes("password") && requester.lockPassword) throw new ForbiddenError("password_locked");
  }
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
  return saved;
}

async function assertNotLastAdmin(kv: Deno.Kv, id: number): Promise<void> {
  const admins = (await users.listUsers(kv)).filter((u) => u.perm.admin && u.id !== id);
  if (admins.length === 0) throw new ForbiddenError("last_admin", "the last admin cannot lose admin rights");
}

/** Deletes a user (self or admin), protecting the last admin, and revokes their sessions. */
export async function deleteUserAccount(
  id: number,
  options: { kv: Deno.Kv; requester: StoredUser },
): Promise<void> {
  if (!options.requester.perm.admin && options.requester.id !== id) throw new ForbiddenError();
  const target = await users.getUser(options.kv, id);
  if (target.perm.admin) await assertNotLastAdmin(options.kv, id);
  await users.deleteUser(options.kv, id);
  await sessions.deleteUserSessions(options.kv, id);
}

/** Creates a user from an admin's POST /api/users body. */
export async function createUserByAdmin(
  body: Record<string, unknown>,
  options: { kv: Deno.Kv; root: string; settings: Settings; minPasswordLength: number },
): Promise<StoredUser> {
  if (Array.isArray(body.which) && body.which.length > 0) throw new BadRequestError();
  const data = (body.data && typeof body.data === "object" ? body.data : {}) as Record<string, unknown>;
  const password = str(data.password);
  if (!password) throw new BadRequestError("password is empty");
  const username = str(data.username).trim();
  if (!username) throw new BadRequestError("username is empty");
  const perm = normalizePerm(data.perm);
  if (perm.share && !perm.download) {
    throw new BadRequestError("permission to share requires permission to download");
  }
  checkPasswordPolicy(password, options.minPasswordLength);
  const u = userFromDefaults(options.settings, username, "");
  for (const f of FULL_FIELDS) {
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
