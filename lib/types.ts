// This module is browser-compatible.
/** Wire shapes shared by the server and the browser (docs/api.md). */

/** The 8 permission flags (docs/api.md#permissions), plus our `publish` (an extra key filebrowser clients ignore). */
export interface Permissions {
  admin: boolean;
  execute: boolean;
  create: boolean;
  rename: boolean;
  modify: boolean;
  delete: boolean;
  share: boolean;
  download: boolean;
  /** Our addition: schedule and publish posts of the static site (settings.site); absent = false. */
  publish?: boolean;
}

/** Permission names, in wire order. */
export const PERMISSION_NAMES = [
  "admin",
  "execute",
  "create",
  "rename",
  "modify",
  "delete",
  "share",
  "download",
  "publish",
] as const;

/** A permission name. */
export type Permission = typeof PERMISSION_NAMES[number];

/** Listing sort order. */
export interface Sorting {
  by: "name" | "size" | "modified" | string;
  asc: boolean;
}

/** An allow/deny rule (docs/security.md#the-path-gate). */
export interface Rule {
  regex: boolean;
  allow: boolean;
  path: string;
  regexp: { raw: string } | null;
}

/** View modes of the listing. */
export type ViewMode = "list" | "mosaic" | "mosaic gallery";

/** A user as sent on the wire (password always ""). */
export interface User {
  id: number;
  username: string;
  password: string;
  scope: string;
  locale: string;
  lockPassword: boolean;
  viewMode: ViewMode | string;
  singleClick: boolean;
  redirectAfterCopyMove: boolean;
  perm: Permissions;
  commands: string[];
  sorting: Sorting;
  rules: Rule[];
  hideDotfiles: boolean;
  dateFormat: boolean;
  aceEditorTheme: string;
  /** Our addition: "" (instance default), "light" or "dark". Not in the JWT. */
  theme?: string;
  /** Our addition: WebDAV access when the instance enables it (absent = on). Not in the JWT. */
  webdav?: boolean;
  /** Our addition: most bytes the scope (and the user's trash) may hold; 0 or absent = no quota. */
  quota?: number;
}

/** The stored user: the wire user plus the bcrypt hash and bookkeeping. */
export interface StoredUser extends Omit<User, "password"> {
  passwordHash: string;
  /** Bumped whenever the user's permissions, password or record change: older sessions are revoked. */
  sessionEpoch: number;
  /** Milliseconds of the last update through the API; tokens issued before it get X-Renew-Token. */
  updatedAt?: number;
}

/** The `user` claim inside the JWT (docs/api.md#authentication): exactly these 12 keys. */
export interface TokenUser {
  id: number;
  locale: string;
  viewMode: string;
  singleClick: boolean;
  redirectAfterCopyMove: boolean;
  perm: Permissions;
  commands: string[];
  lockPassword: boolean;
  hideDotfiles: boolean;
  dateFormat: boolean;
  username: string;
  aceEditorTheme: string;
}

/** Defaults for new users (settings.defaults). */
export interface UserDefaults {
  scope: string;
  locale: string;
  viewMode: string;
  singleClick: boolean;
  redirectAfterCopyMove: boolean;
  sorting: Sorting;
  perm: Permissions;
  commands: string[];
  hideDotfiles: boolean;
  dateFormat: boolean;
  aceEditorTheme: string;
}

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
  /** Commands may use the network (`--exec-network`). */
  network: boolean;
}

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

/** Who must enrol in two-factor login (settings.twoFactorRequired). */
export type TwoFactorRequirement = "" | "admins" | "all";

/** An app password as listed (never its secret or hash). */
export interface AppPasswordInfo {
  id: string;
  name: string;
  /** ISO dates. */
  created: string;
  lastUsed: string | null;
}

/** A new app password: the secret is shown this once. */
export interface NewAppPassword extends AppPasswordInfo {
  password: string;
}

/** The two-factor state of the requester (GET /api/twofa). */
export interface TwoFactorStatus {
  enabled: boolean;
  /** Unused recovery codes. */
  recoveryCodesLeft: number;
  /** The admin requires this user to enrol. */
  required: boolean;
}

/** A started enrolment: the TOTP secret (base32) and its otpauth:// URI for the QR code. */
export interface TwoFactorEnrollment {
  secret: string;
  uri: string;
}

/** Front-matter formats: `---` YAML, `+++` TOML, `{` JSON. */
export type FrontMatterFormat = "yaml" | "toml" | "json";

/** The "Site" card of the global settings. */
export interface SiteSettings {
  enabled: boolean;
  /** The site folder, a vpath from the files root (it must lie inside the scope of the admin who sets it). */
  path: string;
  /** Content folder, relative to the site folder. */
  contentDir: string;
  /** Archetypes folder, relative to the site folder. */
  archetypesDir: string;
  /** "detect" accepts the three formats; a fixed format also shapes posts whose archetype has none. */
  frontMatter: "detect" | FrontMatterFormat;
  /** Build command (argv words), run after a publish when command execution is enabled; [] = none. */
  build: string[];
}

/** What the files page needs to offer publishing to the current user (GET /api/publish/site). */
export interface SiteInfo {
  enabled: boolean;
  /** The content folder as a vpath of the user's scope; null when off or outside the scope. */
  content: string | null;
  /** A build command runs after publishing. */
  build: boolean;
}

/** An archetype offered by the new-post prompt. */
export interface Archetype {
  name: string;
  /** The built-in default (the archetypes folder has no `default.md`). */
  builtin: boolean;
}

/** States of a publish schedule. */
export type ScheduleState = "scheduled" | "running" | "published" | "failed" | "cancelled";

/** A scheduled (or done) publication of one post; one record per post. */
export interface PublishSchedule {
  id: string;
  userId: number;
  /** The post, a vpath of the scheduling user's scope. */
  path: string;
  /** The publication date written into the front matter (ISO 8601 with offset). */
  date: string;
  /** The same moment in milliseconds. */
  at: number;
  /** Bumped by every reschedule and cancel; queue messages of older versions are ignored. */
  version: number;
  state: ScheduleState;
  /** Error code of a failed run (`build_failed`, `no_front_matter`, `outside_content`, ...). */
  error?: string;
  /** Exit code of the build command, when one ran. */
  buildCode?: number;
  /** A build log is kept (GET /api/publish/schedules/{id}/log). */
  hasLog: boolean;
  updatedAt: number;
}

/** The publish state of one post (GET /api/publish/post). */
export interface PostInfo {
  path: string;
  /** null: the file has no front matter. */
  format: FrontMatterFormat | null;
  draft: boolean | null;
  date: string | null;
  schedule: PublishSchedule | null;
}

/** The output of the last build command of a schedule. */
export interface BuildLog {
  code: number;
  output: string;
  at: number;
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

/** A share link on the wire (docs/api.md#shares). */
export interface Share {
  hash: string;
  path: string;
  userID: number;
  expire: number;
  hasPassword: boolean;
  /** Unix seconds the link was made (our extension; absent on older or imported links). */
  created?: number;
  /** "drop": an upload-only link to a folder (our extension; absent on ordinary links). */
  kind?: "drop";
  /** Drop links: largest accepted file in bytes (0: no limit). */
  maxFileSize?: number;
  /** Drop links: how many files may be uploaded (0: no limit). */
  maxFiles?: number;
  /** Drop links: uploads started so far. */
  uploads?: number;
  /** Added client-side for admins. */
  username?: string;
}

/** Resource type values (docs/api.md#resources). */
export type ResourceType =
  | ""
  | "image"
  | "video"
  | "audio"
  | "pdf"
  | "text"
  | "textImmutable"
  | "blob"
  | "invalid_link";

/** A file or folder (docs/api.md#resources). */
export interface Resource {
  items?: Resource[];
  numDirs?: number;
  numFiles?: number;
  sorting?: Sorting;
  path: string;
  name: string;
  size: number;
  extension: string;
  modified: string;
  mode: number;
  isDir: boolean;
  isSymlink: boolean;
  type: ResourceType;
  subtitles?: string[];
  content?: string;
  checksums?: Record<string, string>;
  token?: string;
  resolution?: { width: number; height: number };
}

/** One search hit (NDJSON line of /api/search). */
export interface SearchHit {
  dir: boolean;
  path: string;
}

/** Disk usage (docs/api.md#disk-usage). */
export interface Usage {
  total: number;
  used: number;
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

/** One deleted item in the user's trash (GET /api/trash). */
export interface TrashItem {
  id: string;
  /** Where it was, in the user's scope. */
  path: string;
  name: string;
  isDir: boolean;
  /** Bytes of the item (all files of a folder). */
  size: number;
  /** ISO time of the deletion. */
  deletedAt: string;
  /** ISO time after which the purge removes it for good. */
  expiresAt: string;
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

/** Why an archive entry was not extracted (one NDJSON `skip` line of POST /api/extract). */
export type ExtractSkipReason =
  | "exists"
  | "is_folder"
  | "not_folder"
  | "symlink"
  | "hardlink"
  | "special"
  | "bad_name"
  | "denied"
  | "hidden";

/** One NDJSON line of POST /api/extract (docs/api.md#extract). */
export type ExtractEvent =
  | { type: "start"; entries: number; bytes: number }
  | { type: "progress"; entries: number; bytes: number; name: string }
  | { type: "skip"; name: string; reason: ExtractSkipReason }
  | { type: "done"; files: number; folders: number; skipped: number; bytes: number }
  | { type: "error"; status: number; message: string };

/** What a folder holds, counted with rules and hiding applied (GET /api/foldersize). */
export interface FolderSize {
  bytes: number;
  files: number;
  folders: number;
}

/** One NDJSON line of GET /api/foldersize (docs/api.md#folder-sizes). */
export type FolderSizeEvent =
  | ({ type: "progress" } & FolderSize)
  | ({ type: "done"; cached: boolean } & FolderSize);
