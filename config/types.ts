/** The resolved server configuration: its shape, without the code that reads flags and the environment. */

/** Authentication methods. */
export type AuthMethod = "json" | "proxy" | "noauth" | "hook";

/** The fully resolved, frozen server configuration. */
export interface Config {
  address: string;
  port: number;
  /** Absolute path of the files root. */
  root: string;
  /** Deno KV path or remote URL. */
  database: string;
  /** Base URL without trailing slash ("" by default). */
  baseUrl: string;
  authMethod: AuthMethod;
  /** Header carrying the username for proxy auth. */
  authHeader: string;
  /** Command that decides logins with `--auth hook` (docs/api.md). */
  authCommand: string;
  /** Remote addresses allowed to set the proxy auth header. */
  trustedProxies: string[];
  /** Token lifetime in seconds. */
  tokenExpiration: number;
  /** Command runner and event hooks on/off (off by default). */
  enableExec: boolean;
  /** Wall-clock limit of one command or hook, in seconds. */
  execTimeout: number;
  /** Commands keep the host network (off: no network at all). */
  execNetwork: boolean;
  /** Run commands without the sandbox when bubblewrap is unavailable (unsafe). */
  execUnconfined: boolean;
  /** Processes one command may run at once. */
  execMaxProcesses: number;
  /** Bytes of memory one command, hook or build may use. */
  execMaxMemory: number;
  /** The publishing build keeps the host network (off: none). */
  publishNetwork: boolean;
  minPasswordLength: number;
  logLevel: "debug" | "info" | "warn" | "error";
  enableThumbs: boolean;
  resizePreview: boolean;
  followExternalSymlinks: boolean;
  /** The WebDAV endpoint at `<baseurl>/dav/` (off by default). */
  webdav: boolean;
  typeDetectionByHeader: boolean;
  /** Directory for caches (previews), outside the files root. */
  cacheDir: string;
  /**
   * File of the search index snapshot (next to a local database, in the cache dir for a remote or in-memory
   * one); "" when disabled.
   */
  searchSnapshot: string;
  /** Directory for partial uploads, outside the files root. */
  uploadDir: string;
  /** Seconds after which an untouched partial upload is removed. */
  uploadExpiry: number;
  /** Days deleted items stay in the trash (`<upload dir>/.trash`); 0 deletes at once, as filebrowser does. */
  trashDays: number;
  /** Days audit log entries stay in the database; 0 keeps none (the JSON lines still go to the log). */
  auditDays: number;
  /** First-start admin credentials (only used when the database is empty). */
  adminUsername: string;
  adminPassword: string;
  /** A filebrowser database imported on the first start (an empty database), or "". */
  importFilebrowser: string;
  /** Password guesses allowed per client and user (or share) per minute before 429; five times that per client. */
  loginRateLimit: number;
  /** Limits of server-side extraction (POST /api/extract): entries, bytes written, expansion ratio. */
  extractLimits: { maxEntries: number; maxBytes: number; maxRatio: number };
  /** Human verification of logins (reCAPTCHA v2 API), or null when off (needs json auth, a key and a secret). */
  recaptcha: RecaptchaConfig | null;
  /** The project's issue tracker ("" = no "Report issue" link on error toasts). */
  issuesUrl: string;
  /** The project's web site ("" = the sidebar shows the product name as plain text). */
  projectUrl: string;
  version: string;
}

/** Where the human-verification widget and its verification endpoint are, and the site's key pair. */
export interface RecaptchaConfig {
  /** Origin (and optional path prefix) serving `/recaptcha/api.js` and `/recaptcha/api/siteverify`. */
  host: string;
  key: string;
  secret: string;
}

/** Version string reported to clients. */
export const VERSION = "0.1.0";
