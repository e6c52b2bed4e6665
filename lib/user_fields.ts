/** The fields of a user record that PUT /api/users/{id} names in `which`, parsed and applied. */
import { BadRequestError } from "./errors.ts";
import { canonicalPath } from "./fs/path.ts";
import { checkPasswordPolicy, hashPassword } from "./auth/passwords.ts";
import type { Permissions, Rule, StoredUser } from "./types.ts";
import { PERMISSION_NAMES } from "./types.ts";
import { normalizeRules, validateRules } from "./settings.ts";
import { normalizeUsername } from "./usernames.ts";

/** Every field a client may name, in the order a full replace applies them. */
export const USER_FIELDS = [
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
  "webdav",
  "quota",
] as const;

/** One user field name. */
export type UserField = typeof USER_FIELDS[number];

/** Fields only admins may change. */
export const ADMIN_ONLY_FIELDS: readonly UserField[] = [
  "username",
  "scope",
  "lockPassword",
  "perm",
  "commands",
  "rules",
  "webdav",
  "quota",
];

/**
 * Fields that change who someone is or what they may do: changing one needs the requester's current password (json
 * auth) and revokes the user's other sessions.
 */
export const SECURITY_FIELDS: readonly UserField[] = [
  "username",
  "password",
  "scope",
  "lockPassword",
  "perm",
  "commands",
  "rules",
  "webdav",
];

const BY_FOLDED = new Map<string, UserField>(USER_FIELDS.map((f) => [f.toLowerCase(), f]));

/**
 * Parses a `which` list: `[]` or `["all"]` mean a full replace; otherwise each entry names a field, compared
 * case-folded. Unknown names are a 400 (upstream answers 500); duplicates count once, so a request never does the same
 * (possibly expensive) work twice, and a list longer than the field list is refused before anything else happens.
 */
export function parseWhich(which: unknown): UserField[] | "all" {
  if (which === undefined || which === null) return "all";
  if (!Array.isArray(which)) throw new BadRequestError(`"which" must be a list of field names`);
  if (which.length > USER_FIELDS.length) throw new BadRequestError(`"which" names too many fields`);
  const names = which.map((w) => typeof w === "string" ? w.toLowerCase() : "");
  if (names.length === 0 || (names.length === 1 && names[0] === "all")) return "all";
  const out = new Set<UserField>();
  for (const [i, name] of names.entries()) {
    const field = BY_FOLDED.get(name);
    if (!field) throw new BadRequestError(`unknown user field "${String(which[i]).slice(0, 64)}"`);
    out.add(field);
  }
  return [...out];
}

function bool(x: unknown, fallback = false): boolean {
  return typeof x === "boolean" ? x : fallback;
}

/** A string field of untrusted input, or the fallback when it is not a string. */
export function str(x: unknown, fallback = ""): string {
  return typeof x === "string" ? x : fallback;
}

/** Normalises the `perm` object of untrusted input. */
export function normalizePerm(x: unknown, fallback?: Permissions): Permissions {
  const p = (x && typeof x === "object" ? x : {}) as Record<string, unknown>;
  const out = {} as Permissions;
  for (const k of PERMISSION_NAMES) out[k] = bool(p[k], fallback?.[k] ?? false);
  return out;
}

/** Applies one field of untrusted `data` onto a stored user (hashing a non-empty password after the policy check). */
export async function applyField(
  u: StoredUser,
  field: UserField,
  data: Record<string, unknown>,
  minLen: number,
): Promise<void> {
  switch (field) {
    case "username": {
      // An unchanged name passes as it is, so records imported from filebrowser stay editable.
      const name = str(data.username);
      if (name !== u.username) u.username = normalizeUsername(name);
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
      u.scope = canonicalPath(str(data.scope).trim());
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
    case "webdav":
      // Our addition: WebDAV access per user (on unless switched off), when the instance runs with --webdav.
      u.webdav = bool(data.webdav, true);
      break;
    case "quota": {
      // Filebrowser's client replaces users with every field it knows, and quota is not one: absent keeps it.
      const q = data.quota;
      if (q === undefined) return;
      if (q !== null && (typeof q !== "number" || !Number.isSafeInteger(q) || q < 0)) {
        throw new BadRequestError("quota must be a whole number of bytes, 0 for none");
      }
      u.quota = q ?? 0;
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
