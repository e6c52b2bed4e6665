// This module is browser-compatible.
/** API calls and pure form rules of the settings screens (docs/api.md#users, docs/api.md#settings). */
import type { Permissions, Rule, Settings, User, UserDefaults } from "../lib/types.ts";
import { PERMISSION_NAMES } from "../lib/types.ts";
import { apiFetch } from "./api.ts";
import { renewToken } from "./session.ts";
import { user as sessionUser } from "./state.ts";

const JSON_HEADERS = { "Content-Type": "application/json" };

/** Reads the global settings (admin). */
export async function getSettings(): Promise<Settings> {
  return await (await apiFetch("/settings")).json() as Settings;
}

/** Saves the whole settings object (admin). */
export async function putSettings(settings: Settings): Promise<void> {
  await apiFetch("/settings", { method: "PUT", headers: JSON_HEADERS, body: JSON.stringify(settings) });
}

/** All users, by id (admin). */
export async function listUsers(): Promise<User[]> {
  return await (await apiFetch("/users")).json() as User[];
}

/** One user (self or admin). */
export async function getUser(id: number): Promise<User> {
  return await (await apiFetch(`/users/${id}`)).json() as User;
}

/** Options of the calls that change accounts. */
export interface ReauthOptions {
  /** The requester's own password (json auth re-authenticates these calls; other methods ignore it). */
  currentPassword?: string;
}

/** Creates a user (admin); returns the new id read from the Location header. */
export async function createUser(data: User, options: ReauthOptions = {}): Promise<number> {
  const res = await apiFetch("/users", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({
      what: "user",
      which: [],
      current_password: options.currentPassword ?? "",
      data: { ...data, id: 0 },
    }),
  });
  await res.body?.cancel();
  const id = Number(res.headers.get("Location")?.split("/").pop());
  return Number.isInteger(id) ? id : 0;
}

/** Replaces a whole user record (admin, `which: ["all"]`); a blank password keeps the stored one. */
export async function saveUser(data: User, options: ReauthOptions = {}): Promise<void> {
  await apiFetch(`/users/${data.id}`, {
    method: "PUT",
    headers: JSON_HEADERS,
    body: JSON.stringify({
      what: "user",
      which: ["all"],
      current_password: options.currentPassword ?? "",
      data,
    }),
  });
  if (sessionUser.value?.id === data.id) await refreshSessionUser();
}

/** Deletes a user (admin, or oneself). */
export async function deleteUser(id: number, options: ReauthOptions = {}): Promise<void> {
  const res = await apiFetch(`/users/${id}`, {
    method: "DELETE",
    headers: JSON_HEADERS,
    body: JSON.stringify({ current_password: options.currentPassword ?? "" }),
  });
  await res.body?.cancel();
}

/** Changes one's own password (Settings › Profile). */
export async function changePassword(
  id: number,
  password: string,
  options: ReauthOptions = {},
): Promise<void> {
  const res = await apiFetch(`/users/${id}`, {
    method: "PUT",
    headers: JSON_HEADERS,
    body: JSON.stringify({
      what: "user",
      which: ["password"],
      current_password: options.currentPassword ?? "",
      data: { id, password },
    }),
  });
  await res.body?.cancel();
}

/** After the session user's record changed: a fresh token (new claims) and the stored record as session user. */
export async function refreshSessionUser(): Promise<void> {
  const current = sessionUser.value;
  if (!current) return;
  await renewToken();
  sessionUser.value = await getUser(current.id);
}

/** Global shell text → list: split on spaces, empties dropped. */
export function splitWords(text: string): string[] {
  return text.split(" ").map((s) => s.trim()).filter(Boolean);
}

/** Hook command text → list: split on newlines, empties dropped. */
export function splitLines(text: string): string[] {
  return text.split("\n").map((s) => s.trim()).filter(Boolean);
}

/** Permissions after (un)ticking one: ticking admin ticks all the others. */
export function togglePermission(perm: Permissions, name: keyof Permissions, on: boolean): Permissions {
  if (name === "admin" && on) {
    return Object.fromEntries(PERMISSION_NAMES.map((k) => [k, true])) as unknown as Permissions;
  }
  return { ...perm, [name]: on };
}

/** A new user built from the settings defaults: empty name and password, no rules, id 0. */
export function userFromDefaults(d: UserDefaults): User {
  return {
    id: 0,
    username: "",
    password: "",
    scope: d.scope,
    locale: d.locale,
    lockPassword: false,
    viewMode: d.viewMode,
    singleClick: d.singleClick,
    redirectAfterCopyMove: d.redirectAfterCopyMove,
    perm: { ...d.perm },
    commands: [...d.commands],
    sorting: { ...d.sorting },
    rules: [],
    hideDotfiles: d.hideDotfiles,
    dateFormat: d.dateFormat,
    aceEditorTheme: d.aceEditorTheme,
    theme: "",
  };
}

/** A blank rule (deny, path). */
export function newRule(): Rule {
  return { allow: false, regex: false, path: "", regexp: { raw: "" } };
}

/** The text a rule is edited as: the pattern for a regex rule, else the path. */
export function ruleText(rule: Rule): string {
  return rule.regex ? rule.regexp?.raw ?? "" : rule.path;
}

/** A rule with its text set (pattern or path, by kind). */
export function withRuleText(rule: Rule, text: string): Rule {
  return rule.regex
    ? { ...rule, path: "", regexp: { raw: text } }
    : { ...rule, path: text, regexp: { raw: "" } };
}
