/** Admin-editable settings: defaults, normalisation (docs/api.md#settings) and rule validation. */
import { RE2JS } from "re2js";
import { BadRequestError } from "./errors.ts";
import { cleanVpath } from "./fs/path.ts";
import type { Rule, Settings, SiteSettings, UserDefaults } from "./types.ts";
import { HOOK_EVENTS } from "./types.ts";

/** Default permissions for new users. */
export function defaultUserDefaults(): UserDefaults {
  return {
    scope: ".",
    locale: "en",
    viewMode: "mosaic",
    singleClick: false,
    redirectAfterCopyMove: true,
    sorting: { by: "", asc: false },
    perm: {
      admin: false,
      execute: true,
      create: true,
      rename: true,
      modify: true,
      delete: true,
      share: true,
      download: true,
      publish: false,
    },
    commands: [],
    hideDotfiles: false,
    dateFormat: false,
    aceEditorTheme: "",
  };
}

/** The quick-setup settings of a first start (docs/configuration.md#first-start). */
export function defaultSettings(options: { authMethod?: string; minPasswordLength?: number } = {}): Settings {
  return normalizeSettings({
    signup: false,
    hideLoginButton: true,
    createUserDir: false,
    minimumPasswordLength: options.minPasswordLength ?? 12,
    userHomeBasePath: "/users",
    defaults: defaultUserDefaults(),
    authMethod: options.authMethod ?? "json",
    rules: [],
    branding: {
      name: "",
      disableExternal: false,
      disableUsedPercentage: false,
      files: "",
      theme: "",
      color: "",
    },
    tus: { chunkSize: 10 * 1024 * 1024, retryCount: 5 },
    shell: [],
    commands: {},
    enableGuest: false,
    customCss: "",
    site: defaultSiteSettings(),
  });
}

function bool(x: unknown): boolean {
  return x === true;
}

function str(x: unknown, fallback = ""): string {
  return typeof x === "string" ? x : fallback;
}

function num(x: unknown, fallback = 0): number {
  return typeof x === "number" && Number.isFinite(x) && x >= 0 ? Math.floor(x) : fallback;
}

function strList(x: unknown): string[] {
  return Array.isArray(x) ? x.filter((s): s is string => typeof s === "string") : [];
}

/** Normalises a rule list from untrusted JSON. */
export function normalizeRules(x: unknown): Rule[] {
  if (!Array.isArray(x)) return [];
  return x.filter((r) => r && typeof r === "object").map((r: Record<string, unknown>) => {
    const regexp = r.regexp && typeof r.regexp === "object"
      ? str((r.regexp as Record<string, unknown>).raw)
      : "";
    return {
      regex: bool(r.regex),
      allow: bool(r.allow),
      path: str(r.path),
      regexp: regexp || r.regex ? { raw: regexp } : null,
    };
  });
}

/** Normalises user defaults from untrusted JSON. */
export function normalizeDefaults(x: unknown): UserDefaults {
  const d = (x && typeof x === "object" ? x : {}) as Record<string, unknown>;
  const base = defaultUserDefaults();
  const perm = (d.perm && typeof d.perm === "object" ? d.perm : {}) as Record<string, unknown>;
  const sorting = (d.sorting && typeof d.sorting === "object" ? d.sorting : {}) as Record<string, unknown>;
  return {
    scope: str(d.scope, base.scope),
    locale: str(d.locale) || "en",
    viewMode: str(d.viewMode) || "mosaic",
    singleClick: bool(d.singleClick),
    redirectAfterCopyMove: bool(d.redirectAfterCopyMove),
    sorting: { by: str(sorting.by), asc: bool(sorting.asc) },
    perm: {
      admin: bool(perm.admin),
      execute: bool(perm.execute),
      create: bool(perm.create),
      rename: bool(perm.rename),
      modify: bool(perm.modify),
      delete: bool(perm.delete),
      share: bool(perm.share),
      download: bool(perm.download),
      publish: bool(perm.publish),
    },
    commands: strList(d.commands),
    hideDotfiles: bool(d.hideDotfiles),
    dateFormat: bool(d.dateFormat),
    aceEditorTheme: str(d.aceEditorTheme),
  };
}

/** The site settings of a first start: off, Hugo's folder names. */
export function defaultSiteSettings(): SiteSettings {
  return {
    enabled: false,
    path: "",
    contentDir: "content",
    archetypesDir: "archetypes",
    frontMatter: "detect",
    build: [],
  };
}

// A folder below the site folder: relative, lexically clean, never above it (`../x` becomes `x`).
function subFolder(x: unknown, fallback: string): string {
  return cleanVpath("/" + str(x)).path.slice(1) || fallback;
}

/** Normalises the site settings from untrusted JSON (paths cleaned lexically; the disk is checked on save). */
export function normalizeSiteSettings(x: unknown): SiteSettings {
  const s = (x && typeof x === "object" ? x : {}) as Record<string, unknown>;
  const base = defaultSiteSettings();
  const format = str(s.frontMatter);
  const path = str(s.path).trim();
  return {
    enabled: bool(s.enabled),
    path: path ? cleanVpath(path).path : "",
    contentDir: subFolder(s.contentDir, base.contentDir),
    archetypesDir: subFolder(s.archetypesDir, base.archetypesDir),
    frontMatter: format === "yaml" || format === "toml" || format === "json" ? format : "detect",
    build: strList(s.build).filter((w) => w !== ""),
  };
}

/** Normalises a whole settings object (wire or stored) into the canonical shape, with upstream's read defaults. */
export function normalizeSettings(x: unknown): Settings {
  const s = (x && typeof x === "object" ? x : {}) as Record<string, unknown>;
  const branding = (s.branding && typeof s.branding === "object" ? s.branding : {}) as Record<
    string,
    unknown
  >;
  const tus = (s.tus && typeof s.tus === "object" ? s.tus : {}) as Record<string, unknown>;
  let chunkSize = num(tus.chunkSize), retryCount = num(tus.retryCount);
  if (chunkSize === 0 && retryCount === 0) [chunkSize, retryCount] = [10485760, 5];
  if (chunkSize === 0) chunkSize = 1024 * 1024;
  const rawCommands = (s.commands && typeof s.commands === "object" ? s.commands : {}) as Record<
    string,
    unknown
  >;
  const commands: Record<string, string[]> = {};
  for (const evt of HOOK_EVENTS) for (const when of ["before", "after"]) commands[`${when}_${evt}`] = [];
  for (const [k, v] of Object.entries(rawCommands)) commands[k] = strList(v);
  const sorted: Record<string, string[]> = {};
  for (const k of Object.keys(commands).sort()) sorted[k] = commands[k];
  return {
    signup: bool(s.signup),
    hideLoginButton: bool(s.hideLoginButton),
    createUserDir: bool(s.createUserDir),
    minimumPasswordLength: num(s.minimumPasswordLength) || 12,
    userHomeBasePath: str(s.userHomeBasePath) || "/users",
    defaults: normalizeDefaults(s.defaults),
    authMethod: str(s.authMethod) || "json",
    rules: normalizeRules(s.rules),
    branding: {
      name: str(branding.name),
      disableExternal: bool(branding.disableExternal),
      disableUsedPercentage: bool(branding.disableUsedPercentage),
      files: str(branding.files),
      theme: str(branding.theme),
      color: str(branding.color),
    },
    tus: { chunkSize, retryCount },
    shell: strList(s.shell).filter((p) => p !== ""),
    commands: sorted,
    enableGuest: bool(s.enableGuest),
    customCss: str(s.customCss),
    site: normalizeSiteSettings(s.site),
    appPasswordsForLogin: bool(s.appPasswordsForLogin),
    twoFactorRequired: s.twoFactorRequired === "admins" || s.twoFactorRequired === "all"
      ? s.twoFactorRequired
      : "",
  };
}

/** A compiled rule regex: an unanchored search, like Go's `regexp.MatchString`. */
export interface RuleRegex {
  test(input: string): boolean;
}

/**
 * Compiles a rule's regular expression with RE2 semantics, as upstream's Go `regexp` does: matching is linear in
 * the path length (a backtracking engine lets one crafted rule freeze the server), inline flags such as `(?i)`,
 * `(?s)` or `(?U)` work, and backreferences and lookarounds do not compile. Throws on an invalid pattern.
 */
export function compileRuleRegex(raw: string): RuleRegex {
  return RE2JS.compile(raw);
}

/** Throws BadRequestError naming the first rule whose regex does not compile. */
export function validateRules(rules: Rule[], label = "rule"): void {
  rules.forEach((r, i) => {
    if (!r.regex) return;
    const raw = r.regexp?.raw ?? "";
    try {
      compileRuleRegex(raw);
    } catch (err) {
      throw new BadRequestError(
        `invalid regular expression in ${label} ${i + 1} ("${raw}"): ${(err as Error).message}`,
        {
          code: "invalid_rule",
        },
      );
    }
  });
}
