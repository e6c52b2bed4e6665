/**
 * filebrowser's `config` records: `settings` merge into ours; `server` and `auther` are start-up options here,
 * so they become the equivalent command-line flags (config.ts) for the admin to use.
 */
import { normalizeSettings } from "../settings.ts";
import type { Settings } from "../types.ts";
import { type BadRule, badRules, checkFields, unknownPerms } from "./fb_decode.ts";
import { FbDataError, type FbRecord } from "./fb_read.ts";

const SETTINGS_FIELDS = {
  key: "string",
  signup: "boolean",
  hideLoginButton: "boolean",
  createUserDir: "boolean",
  userHomeBasePath: "string",
  defaults: "object",
  authMethod: "string",
  logoutPage: "string",
  branding: "object",
  tus: "object",
  commands: "object",
  shell: "array",
  rules: "array",
  minimumPasswordLength: "number",
  fileMode: "number",
  dirMode: "number",
  hideDotfiles: "boolean",
} as const;

const DEFAULTS_FIELDS = {
  scope: "string",
  locale: "string",
  viewMode: "string",
  singleClick: "boolean",
  redirectAfterCopyMove: "boolean",
  sorting: "object",
  perm: "object",
  commands: "array",
  hideDotfiles: "boolean",
  dateFormat: "boolean",
  aceEditorTheme: "string",
} as const;

const BRANDING_FIELDS = {
  name: "string",
  disableExternal: "boolean",
  disableUsedPercentage: "boolean",
  files: "string",
  theme: "string",
  color: "string",
} as const;

const SERVER_FIELDS = {
  root: "string",
  baseURL: "string",
  socket: "string",
  tlsKey: "string",
  tlsCert: "string",
  port: "string",
  address: "string",
  log: "string",
  enableThumbnails: "boolean",
  resizePreview: "boolean",
  enableExec: "boolean",
  typeDetectionByHeader: "boolean",
  imageResolutionCalculation: "boolean",
  authHook: "string",
  tokenExpirationTime: "string",
  followExternalSymlinks: "boolean",
} as const;

/** Settings to store, and what the report says about them. */
export interface DecodedSettings {
  settings: Settings;
  unknown: string[];
  badRules: BadRule[];
  /** Settings of filebrowser with no counterpart here (the report lists them). */
  dropped: string[];
  /** filebrowser's auth method (a start-up flag here). */
  authMethod: string;
}

function sub(o: Record<string, unknown>, k: string): Record<string, unknown> {
  return (o[k] && typeof o[k] === "object" ? o[k] : {}) as Record<string, unknown>;
}

/** Merges filebrowser's settings into `current` (our own additions such as guest mode and site are kept). */
export function decodeSettings(rec: FbRecord, current: Settings): DecodedSettings {
  const o = rec.value;
  const unknown = checkFields(o, SETTINGS_FIELDS, rec.where);
  unknown.push(...checkFields(sub(o, "defaults"), DEFAULTS_FIELDS, rec.where, "defaults."));
  unknown.push(...unknownPerms(sub(o, "defaults").perm, "defaults.perm."));
  unknown.push(...checkFields(sub(o, "branding"), BRANDING_FIELDS, rec.where, "branding."));
  const picked: Record<string, unknown> = {};
  for (
    const k of [
      "signup",
      "hideLoginButton",
      "createUserDir",
      "userHomeBasePath",
      "defaults",
      "rules",
      "branding",
      "tus",
      "commands",
      "shell",
      "minimumPasswordLength",
    ]
  ) if (o[k] !== undefined && o[k] !== null) picked[k] = o[k];
  const settings = normalizeSettings({ ...current, ...picked, authMethod: current.authMethod });
  settings.defaults.perm.publish = current.defaults.perm.publish ?? false;
  const dropped: string[] = [];
  if (o.key) dropped.push("key (the token signing key: a new one is used, so everyone logs in again)");
  if (o.logoutPage) dropped.push(`logoutPage (${o.logoutPage})`);
  if (o.fileMode || o.dirMode) {
    dropped.push("fileMode, dirMode (new files and folders get the process umask)");
  }
  if (o.hideDotfiles === true) dropped.push("hideDotfiles (set per user here)");
  return {
    settings,
    unknown,
    badRules: badRules(settings.rules),
    dropped,
    authMethod: typeof o.authMethod === "string" && o.authMethod ? o.authMethod : "json",
  };
}

/** The start-up flags of ours matching filebrowser's `server` record, auth method and auther. */
export interface ServerFlags {
  flags: string[];
  /** Server options with no flag here. */
  notes: string[];
  unknown: string[];
}

function quote(v: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(v) ? v : `'${v.replaceAll("'", `'"'"'`)}'`;
}

/** Translates `server` (and the auth method with its auther record) into our command-line flags. */
export function serverFlags(
  server: FbRecord | null,
  authMethod: string,
  auther: FbRecord | null,
): ServerFlags {
  const flags: string[] = [];
  const notes: string[] = [];
  const s = server?.value ?? {};
  const unknown = server ? checkFields(s, SERVER_FIELDS, server.where) : [];
  const add = (flag: string, v?: unknown) =>
    flags.push(v === undefined ? flag : `${flag} ${quote(String(v))}`);
  if (s.root) add("--root", s.root);
  if (s.baseURL && s.baseURL !== "/") add("--baseurl", s.baseURL);
  if (s.address) add("--address", s.address);
  if (s.port) add("--port", s.port);
  if (s.enableThumbnails === false) add("--disable-thumbnails");
  if (s.resizePreview === false) add("--disable-preview-resize");
  if (s.enableExec === true) add("--enable-exec");
  if (s.typeDetectionByHeader === false) add("--disable-type-detection-by-header");
  if (s.followExternalSymlinks === true) add("--follow-external-symlinks");
  if (s.tokenExpirationTime) add("--token-expiration", s.tokenExpirationTime);
  if (s.socket) {
    notes.push(`socket ${s.socket}: listen on a port behind a proxy instead (docs/reverse-proxy.md)`);
  }
  if (s.tlsCert || s.tlsKey) {
    notes.push("TLS certificate and key: terminate TLS in a reverse proxy (docs/reverse-proxy.md)");
  }
  if (s.log && s.log !== "stdout") notes.push(`log ${s.log}: logs go to stderr; redirect them there`);
  if (authMethod !== "json") add("--auth", authMethod);
  const a = auther?.value ?? {};
  if (auther && typeof a !== "object") throw new FbDataError(`${auther.where}: not an object`);
  if (authMethod === "proxy" && typeof a.header === "string" && a.header) add("--auth-header", a.header);
  if (authMethod === "proxy") {
    notes.push(
      "--auth proxy: add --trusted-proxies with your proxy's address (filebrowser believed the header from anyone)",
    );
  }
  const hook = typeof a.command === "string" && a.command ? a.command : s.authHook;
  if (authMethod === "hook" && hook) add("--auth-command", hook);
  const rc = sub(a, "recaptcha");
  if (
    authMethod === "json" && typeof rc.key === "string" && rc.key && typeof rc.secret === "string" &&
    rc.secret
  ) {
    if (typeof rc.host === "string" && rc.host && rc.host !== "https://www.google.com") {
      add("--recaptcha-host", rc.host);
    }
    add("--recaptcha-key", rc.key);
    add("--recaptcha-secret", rc.secret);
  }
  return { flags, notes, unknown };
}
