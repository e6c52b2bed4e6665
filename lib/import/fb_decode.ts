/**
 * Maps filebrowser's JSON records onto ours. Known fields of the wrong type are an error naming the record;
 * fields we do not know (a newer filebrowser) are collected for the report, never silently lost.
 */
import { cleanPath, normalizePerm } from "../users.ts";
import { compileRuleRegex, normalizeRules } from "../settings.ts";
import type { StoredShare } from "../storage/mod.ts";
import type { Rule, StoredUser } from "../types.ts";
import { FbDataError, type FbRecord } from "./fb_read.ts";

type Kind = "string" | "number" | "boolean" | "object" | "array";

const USER_FIELDS: Record<string, Kind> = {
  id: "number",
  username: "string",
  password: "string",
  scope: "string",
  locale: "string",
  lockPassword: "boolean",
  viewMode: "string",
  singleClick: "boolean",
  redirectAfterCopyMove: "boolean",
  perm: "object",
  commands: "array",
  sorting: "object",
  rules: "array",
  hideDotfiles: "boolean",
  dateFormat: "boolean",
  aceEditorTheme: "string",
};

const LINK_FIELDS: Record<string, Kind> = {
  hash: "string",
  path: "string",
  userID: "number",
  expire: "number",
  password_hash: "string",
  token: "string",
};

export const PERM_FIELDS = ["admin", "execute", "create", "rename", "modify", "delete", "share", "download"];

function kindOf(v: unknown): string {
  return Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
}

/**
 * Checks the known fields of `obj` (null counts as absent, as Go's JSON decoder treats it) and returns the names
 * of the unknown ones, prefixed with `prefix`.
 */
export function checkFields(
  obj: Record<string, unknown>,
  fields: Record<string, Kind>,
  where: string,
  prefix = "",
): string[] {
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    const want = fields[k];
    if (!want) unknown.push(prefix + k);
    else if (v !== null && kindOf(v) !== want) {
      throw new FbDataError(`${where}: field "${prefix}${k}" is ${kindOf(v)}, expected ${want}`);
    }
  }
  return unknown;
}

/** Unknown permission names of a `perm` object (a newer filebrowser's permissions are not granted). */
export function unknownPerms(perm: unknown, prefix: string): string[] {
  if (!perm || typeof perm !== "object") return [];
  return Object.keys(perm).filter((k) => !PERM_FIELDS.includes(k)).map((k) => `${prefix}${k}`);
}

/** A regex rule that does not compile: kept (it fails closed) and reported. */
export interface BadRule {
  index: number;
  raw: string;
  error: string;
}

/** The rules whose regex does not compile under our RE2 rule engine. */
export function badRules(rules: Rule[]): BadRule[] {
  const out: BadRule[] = [];
  rules.forEach((r, index) => {
    if (!r.regex) return;
    const raw = r.regexp?.raw ?? "";
    try {
      compileRuleRegex(raw);
    } catch (err) {
      out.push({ index, raw, error: (err as Error).message });
    }
  });
  return out;
}

/** A decoded user and what the report needs to say about it. */
export interface DecodedUser {
  user: StoredUser;
  where: string;
  unknown: string[];
  badRules: BadRule[];
}

function strList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

/** Decodes a `User` record (the id comes from its key, which must match the JSON id when present). */
export function decodeUser(rec: FbRecord, now: number): DecodedUser {
  const o = rec.value;
  const unknown = checkFields(o, USER_FIELDS, rec.where);
  unknown.push(...unknownPerms(o.perm, "perm."));
  const keyId = Number(rec.where.slice(rec.where.indexOf("/") + 1));
  if (o.id !== undefined && o.id !== null && o.id !== keyId) {
    throw new FbDataError(`${rec.where}: the record says id ${o.id}`);
  }
  const username = typeof o.username === "string" ? o.username : "";
  if (username.trim() === "") throw new FbDataError(`${rec.where}: no username`);
  const sorting = (o.sorting ?? {}) as Record<string, unknown>;
  const rules = normalizeRules(o.rules);
  const user: StoredUser = {
    id: keyId,
    username,
    passwordHash: typeof o.password === "string" ? o.password : "",
    scope: cleanPath(typeof o.scope === "string" ? o.scope : "."),
    locale: typeof o.locale === "string" ? o.locale : "en",
    lockPassword: o.lockPassword === true,
    viewMode: typeof o.viewMode === "string" && o.viewMode ? o.viewMode : "list",
    singleClick: o.singleClick === true,
    redirectAfterCopyMove: o.redirectAfterCopyMove === true,
    perm: { ...normalizePerm(o.perm), publish: false },
    commands: strList(o.commands),
    sorting: {
      by: typeof sorting.by === "string" && sorting.by ? sorting.by : "name",
      asc: sorting.asc === true,
    },
    rules,
    hideDotfiles: o.hideDotfiles === true,
    dateFormat: o.dateFormat === true,
    aceEditorTheme: typeof o.aceEditorTheme === "string" ? o.aceEditorTheme : "",
    theme: "",
    sessionEpoch: 0,
    updatedAt: now,
  };
  return { user, where: rec.where, unknown, badRules: badRules(rules) };
}

/** A decoded share. */
export interface DecodedShare {
  share: StoredShare;
  where: string;
  unknown: string[];
}

/** Decodes a `Link` record (the hash comes from its key, which must match the JSON hash). */
export function decodeShare(rec: FbRecord): DecodedShare {
  const o = rec.value;
  const unknown = checkFields(o, LINK_FIELDS, rec.where);
  const hash = rec.where.slice(rec.where.indexOf("/") + 1);
  if (typeof o.hash === "string" && o.hash !== hash) {
    throw new FbDataError(`${rec.where}: the record says hash ${o.hash}`);
  }
  if (hash === "") throw new FbDataError(`${rec.where}: empty share hash`);
  const userID = o.userID as number | undefined;
  if (typeof userID !== "number" || !Number.isSafeInteger(userID) || userID < 1) {
    throw new FbDataError(`${rec.where}: no owner (userID)`);
  }
  const expire = typeof o.expire === "number" && Number.isFinite(o.expire) && o.expire > 0
    ? Math.floor(o.expire)
    : 0;
  const path = typeof o.path === "string" ? o.path : "/";
  return {
    share: {
      hash,
      path: path.startsWith("/") ? path : "/" + path,
      userID,
      expire,
      passwordHash: typeof o.password_hash === "string" ? o.password_hash : "",
      token: typeof o.token === "string" ? o.token : "",
    },
    where: rec.where,
    unknown,
  };
}
