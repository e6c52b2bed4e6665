/** Settings on the wire (docs/api.md#settings): the answer of GET /api/settings and the checks of a PUT body. */
import { BadRequestError } from "./errors.ts";
import { defaultSiteSettings, normalizeSettings, validateRules } from "./settings.ts";
import type { Settings } from "./types.ts";
import { describeUnsafeHook, findUnsafeHook } from "./runner/hook_safety.ts";

/** The wire form of settings (filebrowser's key order; our extras last). */
export function toWireSettings(s: Settings): Settings {
  return {
    signup: s.signup,
    hideLoginButton: s.hideLoginButton,
    createUserDir: s.createUserDir,
    minimumPasswordLength: s.minimumPasswordLength,
    userHomeBasePath: s.userHomeBasePath,
    defaults: s.defaults,
    authMethod: s.authMethod,
    rules: s.rules,
    branding: s.branding,
    tus: s.tus,
    shell: s.shell,
    commands: s.commands,
    enableGuest: s.enableGuest ?? false,
    customCss: s.customCss ?? "",
    site: s.site ?? defaultSiteSettings(),
    appPasswordsForLogin: s.appPasswordsForLogin ?? false,
    twoFactorRequired: s.twoFactorRequired ?? "",
  };
}

const SETTINGS_TYPES: Record<string, "boolean" | "number" | "string" | "object" | "array"> = {
  signup: "boolean",
  hideLoginButton: "boolean",
  createUserDir: "boolean",
  minimumPasswordLength: "number",
  userHomeBasePath: "string",
  defaults: "object",
  authMethod: "string",
  rules: "array",
  branding: "object",
  tus: "object",
  shell: "array",
  commands: "object",
  enableGuest: "boolean",
  customCss: "string",
  site: "object",
  appPasswordsForLogin: "boolean",
  twoFactorRequired: "string",
};

function typeOf(v: unknown): string {
  return Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
}

/** Validates a PUT /api/settings body and returns the settings to store (authMethod is kept from `current`). */
export function saveSettingsFromWire(body: Record<string, unknown>, current: Settings): Settings {
  for (const [key, want] of Object.entries(SETTINGS_TYPES)) {
    const v = body[key];
    if (v === undefined || v === null) continue;
    if (typeOf(v) !== want) {
      throw new BadRequestError(`"${key}" must be ${want === "array" ? "an array" : `a ${want}`}`, {
        code: "bad_type",
      });
    }
  }
  const tus = body.tus as Record<string, unknown> | undefined;
  for (const k of ["chunkSize", "retryCount"]) {
    if (tus && tus[k] !== undefined && (typeof tus[k] !== "number" || (tus[k] as number) < 0)) {
      throw new BadRequestError(`"tus.${k}" must be a non-negative number`, { code: "bad_type" });
    }
  }
  // Clients that do not know the site settings (filebrowser's) leave them as they are.
  const site = body.site ?? current.site;
  const appPasswordsForLogin = body.appPasswordsForLogin ?? current.appPasswordsForLogin;
  const twoFactorRequired = body.twoFactorRequired ?? current.twoFactorRequired;
  const next = normalizeSettings({
    ...body,
    site,
    appPasswordsForLogin,
    twoFactorRequired,
    authMethod: current.authMethod,
  });
  validateRules(next.rules, "global rule");
  // A hook line that would hand a file name to a program as code is refused with its safe form.
  const unsafe = findUnsafeHook(next.commands, next.shell);
  if (unsafe !== null) {
    throw new BadRequestError(describeUnsafeHook(unsafe.hook, unsafe.line, unsafe.unsafe), {
      code: "unsafe_hook",
    });
  }
  return next;
}
