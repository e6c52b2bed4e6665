// This module is browser-compatible.
/** Pure form rules of the settings screens; their calls are in client/api/users.ts and client/api/settings.ts. */
import type { Permissions, Rule, User, UserDefaults } from "../lib/types.ts";
import { PERMISSION_NAMES } from "../lib/types.ts";

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
