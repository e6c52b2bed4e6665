// This module is browser-compatible.
/** Wire shapes of the server settings, the page startup config and the audit log (docs/api.md). */
import type { SiteSettings } from "./publish.ts";
import type { Rule, TwoFactorRequirement, UserDefaults } from "./users.ts";

/** Branding settings. */
export interface Branding {
  name: string;
  disableExternal: boolean;
  disableUsedPercentage: boolean;
  files: string;
  theme: string;
  color: string;
}

/** How the server runs commands (shown to admins on the global settings screen). */
export interface ExecStatus {
  /** "disabled": no `--enable-exec`; "confined": in the sandbox; "unconfined": `--exec-unconfined` fallback. */
  mode: "disabled" | "confined" | "unconfined";
  /** The sandbox in use, e.g. "bubblewrap 0.8.0" ("" unless confined). */
  sandbox: string;
  /** How the process count is capped: RLIMIT_NPROC, a pids cgroup, or not at all. */
  processLimit: "rlimit" | "cgroup" | "none";
  /** How memory is capped: a memory cgroup per command, RLIMIT_DATA per process, or not at all. */
  memoryLimit: "cgroup" | "rlimit" | "none";
  /** Commands may use the network (`--exec-network`). */
  network: boolean;
}

/**
 * Close reasons of the command runner's WebSocket (code 4403) when a policy refuses every command of the user:
 * deny rules, hidden dotfiles or a storage quota (docs/commands.md). The shell panel explains each.
 */
export const COMMAND_REFUSALS = {
  rules: "not allowed: rules",
  hidden: "not allowed: hidden files",
  quota: "not allowed: quota",
} as const;

/** Event hook names. */
export const HOOK_EVENTS = ["save", "copy", "rename", "upload", "delete", "restore"] as const;

/** Settings as on the wire (docs/api.md#settings). */
export interface Settings {
  signup: boolean;
  hideLoginButton: boolean;
  createUserDir: boolean;
  minimumPasswordLength: number;
  userHomeBasePath: string;
  defaults: UserDefaults;
  authMethod: string;
  rules: Rule[];
  branding: Branding;
  tus: { chunkSize: number; retryCount: number };
  shell: string[];
  commands: Record<string, string[]>;
  /** Our addition: guest mode (auto login as user "guest"). */
  enableGuest?: boolean;
  /** Our addition: custom stylesheet text served after ours. */
  customCss?: string;
  /** Our addition, read-only (GET only, never stored): how this server runs commands. */
  exec?: ExecStatus;
  /** Our addition: publishing of posts for a static-site generator (Hugo layout). */
  site?: SiteSettings;
  /** Our addition: app passwords are accepted by POST /api/login too (not only by WebDAV); absent = false. */
  appPasswordsForLogin?: boolean;
  /** Our addition: who must enrol in two-factor login: "" nobody, "admins" or "all". */
  twoFactorRequired?: TwoFactorRequirement;
}

/** Startup configuration injected into pages (filebrowser's `window.FileBrowser` keys). */
export interface StartupConfig {
  AuthMethod: string;
  BaseURL: string;
  CSS: boolean;
  Color: string;
  DisableExternal: boolean;
  DisableUsedPercentage: boolean;
  EnableExec: boolean;
  EnableThumbs: boolean;
  HideLoginButton: boolean;
  LoginPage: boolean;
  LogoutPage: string;
  Name: string;
  NoAuth: boolean;
  ReCaptcha: boolean;
  /** Our addition: the shortest password (UTF-8 bytes) user creation and password changes take. */
  MinimumPasswordLength: number;
  ReCaptchaHost?: string;
  ReCaptchaKey?: string;
  /** Our addition: the issue tracker for "Report issue" (absent when unset or external links are off). */
  IssuesURL?: string;
  /** Our addition: the project site the product name links to (absent when unset or external links are off). */
  ProjectURL?: string;
  ResizePreview: boolean;
  Signup: boolean;
  StaticURL: string;
  Theme: string;
  TusSettings: { chunkSize: number; retryCount: number };
  Version: string;
  EnableGuest: boolean;
  /** Our addition: the WebDAV endpoint is on (`--webdav`). */
  WebDAV: boolean;
  /** Our addition: days deleted items stay in the trash; 0 = no trash (deletes are permanent). */
  TrashDays?: number;
}

/** The record of the last import from a filebrowser database (shown under Settings › Global). */
export interface FilebrowserImport {
  /** Milliseconds. */
  at: number;
  /** The file imported (its name only). */
  source: string;
  users: number;
  shares: number;
  /** Users and shares not imported (conflicts, expired, orphans). */
  skipped: number;
  /** The report: conflicts, rules that do not compile, unknown fields, settings without a counterpart. */
  lines: string[];
}

/** One audit log entry (GET /api/audit, docs/api.md#audit-log). */
export interface AuditEntry {
  id: string;
  /** Milliseconds since the epoch. */
  time: number;
  /** Username of the actor (for a login: the name tried); "" when anonymous (share links). */
  user: string;
  /** Dotted action name: "login", "file.delete", "share.use", ... */
  action: string;
  /** The file path, or the path inside a share ("" when none). */
  path: string;
  /** The other end: destination of a move or copy, a share's hash, "user:<id>" ("" when none). */
  target: string;
  /** The client's address. */
  client: string;
  /** HTTP status of the answer. */
  status: number;
  /** True when the action succeeded (status below 400). */
  ok: boolean;
  /** Short extra facts: the changed fields of a user, an error code ("" when none). */
  detail: string;
}

/** Filters of the audit log (all optional; times in milliseconds). */
export interface AuditQuery {
  user?: string;
  action?: string;
  path?: string;
  from?: number;
  to?: number;
}
