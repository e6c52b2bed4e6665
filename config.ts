/**
 * Boot-time configuration: the only reader of CLI flags and the environment.
 * Flags win over `FB_*` variables, which win over defaults. Names follow filebrowser's so scripts keep working.
 */

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

interface OptionSpec {
  name: string;
  short?: string;
  env: string;
  type: "string" | "boolean";
  help: string;
  default: string;
}

/** Every option: flag, environment variable, default and help text. */
export const OPTIONS: OptionSpec[] = [
  {
    name: "address",
    short: "a",
    env: "FB_ADDRESS",
    type: "string",
    default: "127.0.0.1",
    help: "address to listen on",
  },
  {
    name: "port",
    short: "p",
    env: "FB_PORT",
    type: "string",
    default: "8080",
    help: "port to listen on (0 = any free port)",
  },
  {
    name: "root",
    short: "r",
    env: "FB_ROOT",
    type: "string",
    default: "",
    help: "files root (default: files/ next to the database)",
  },
  {
    name: "database",
    short: "d",
    env: "FB_DATABASE",
    type: "string",
    default: "data/filebrowser.kv",
    help: "Deno KV file path or remote KV URL",
  },
  {
    name: "baseurl",
    short: "b",
    env: "FB_BASEURL",
    type: "string",
    default: "",
    help: "base URL prefix, e.g. /files-app",
  },
  {
    name: "auth",
    env: "FB_AUTH",
    type: "string",
    default: "json",
    help: "auth method: json, proxy, noauth or hook",
  },
  {
    name: "auth-command",
    env: "FB_AUTH_COMMAND",
    type: "string",
    default: "",
    help: "command that decides logins with --auth hook",
  },
  {
    name: "auth-header",
    env: "FB_AUTH_HEADER",
    type: "string",
    default: "X-Forwarded-User",
    help: "username header for proxy auth",
  },
  {
    name: "trusted-proxies",
    env: "FB_TRUSTED_PROXIES",
    type: "string",
    default: "127.0.0.1,::1",
    help: "proxy addresses or CIDR ranges trusted for proxy auth and X-Forwarded-For",
  },
  {
    name: "token-expiration",
    env: "FB_TOKEN_EXPIRATION",
    type: "string",
    default: "2h",
    help: "token lifetime (Go-style duration: 2h, 90m, 1h30m)",
  },
  {
    name: "enable-exec",
    env: "FB_ENABLE_EXEC",
    type: "boolean",
    default: "false",
    help: "enable the command runner and event hooks",
  },
  {
    name: "exec-timeout",
    env: "FB_EXEC_TIMEOUT",
    type: "string",
    default: "5m",
    help: "wall-clock limit of one command or hook",
  },
  {
    name: "exec-network",
    env: "FB_EXEC_NETWORK",
    type: "boolean",
    default: "false",
    help: "let commands use the network",
  },
  {
    name: "exec-unconfined",
    env: "FB_EXEC_UNCONFINED",
    type: "boolean",
    default: "false",
    help: "run commands without a sandbox when bubblewrap is unavailable (unsafe)",
  },
  {
    name: "exec-max-processes",
    env: "FB_EXEC_MAX_PROCESSES",
    type: "string",
    default: "64",
    help: "processes one command may run at once",
  },
  {
    name: "min-password-length",
    env: "FB_MIN_PASSWORD_LENGTH",
    type: "string",
    default: "12",
    help: "minimum password length in bytes",
  },
  {
    name: "log-level",
    env: "FB_LOG_LEVEL",
    type: "string",
    default: "info",
    help: "debug, info, warn or error",
  },
  {
    name: "disable-thumbnails",
    env: "FB_DISABLE_THUMBNAILS",
    type: "boolean",
    default: "false",
    help: "disable image thumbnails",
  },
  {
    name: "disable-preview-resize",
    env: "FB_DISABLE_PREVIEW_RESIZE",
    type: "boolean",
    default: "false",
    help: "serve full images in the preview",
  },
  {
    name: "webdav",
    env: "FB_WEBDAV",
    type: "boolean",
    default: "false",
    help: "serve WebDAV at <baseurl>/dav/ (HTTP Basic with the account password)",
  },
  {
    name: "follow-external-symlinks",
    env: "FB_FOLLOW_EXTERNAL_SYMLINKS",
    type: "boolean",
    default: "false",
    help: "follow symlinks that leave the scope (unsafe)",
  },
  {
    name: "disable-type-detection-by-header",
    env: "FB_DISABLE_TYPE_DETECTION_BY_HEADER",
    type: "boolean",
    default: "false",
    help: "detect listing types by extension only",
  },
  {
    name: "cache-dir",
    env: "FB_CACHE_DIR",
    type: "string",
    default: "",
    help: "cache directory (default: cache/ next to the database)",
  },
  {
    name: "upload-dir",
    env: "FB_UPLOAD_DIR",
    type: "string",
    default: "",
    help: "partial uploads directory (default: uploads/ next to the database)",
  },
  {
    name: "import-filebrowser",
    env: "FB_IMPORT_FILEBROWSER",
    type: "string",
    default: "",
    help: "first start only: import users, shares and settings from this filebrowser.db",
  },
  {
    name: "upload-expiry",
    env: "FB_UPLOAD_EXPIRY",
    type: "string",
    default: "24h",
    help: "remove partial uploads untouched for this long",
  },
  {
    name: "trash-days",
    env: "FB_TRASH_DAYS",
    type: "string",
    default: "30",
    help: "days deleted items stay in the trash (0 = delete at once)",
  },
  {
    name: "audit-days",
    env: "FB_AUDIT_DAYS",
    type: "string",
    default: "90",
    help: "days audit log entries are kept in the database (0 = none kept)",
  },
  {
    name: "login-rate-limit",
    env: "FB_LOGIN_RATE_LIMIT",
    type: "string",
    default: "10",
    help: "password guesses per client and user per minute before 429",
  },
  {
    name: "extract-max-entries",
    env: "FB_EXTRACT_MAX_ENTRIES",
    type: "string",
    default: "100000",
    help: "most entries of an archive extracted on the server",
  },
  {
    name: "extract-max-size",
    env: "FB_EXTRACT_MAX_SIZE",
    type: "string",
    default: "10G",
    help: "most bytes one extraction writes (suffixes K, M, G, T: powers of 1024)",
  },
  {
    name: "extract-max-ratio",
    env: "FB_EXTRACT_MAX_RATIO",
    type: "string",
    default: "200",
    help: "most bytes written per archive byte (zip bombs), judged past the first MiB",
  },
  {
    name: "recaptcha-host",
    env: "FB_RECAPTCHA_HOST",
    type: "string",
    default: "https://www.google.com",
    help: "human verification provider (reCAPTCHA v2 API)",
  },
  {
    name: "issues-url",
    env: "FB_ISSUES_URL",
    type: "string",
    default: "",
    help: "issue tracker for the error toasts' Report issue link (empty: no link)",
  },
  {
    name: "project-url",
    env: "FB_PROJECT_URL",
    type: "string",
    default: "",
    help: "project site the sidebar's product name links to (empty: plain text)",
  },
  {
    name: "recaptcha-key",
    env: "FB_RECAPTCHA_KEY",
    type: "string",
    default: "",
    help: "human verification site key (on with the secret)",
  },
  {
    name: "recaptcha-secret",
    env: "FB_RECAPTCHA_SECRET",
    type: "string",
    default: "",
    help: "human verification secret",
  },
  {
    name: "username",
    env: "FB_ADMIN_USERNAME",
    type: "string",
    default: "admin",
    help: "first admin's username (first start only)",
  },
  {
    name: "password",
    env: "FB_ADMIN_PASSWORD",
    type: "string",
    default: "",
    help: "first admin's password (first start only; random if empty)",
  },
];

/** Parses a Go-style duration ("2h", "90m", "1h30m", "45s") into seconds; null if invalid. */
export function parseDuration(text: string): number | null {
  const s = text.trim();
  if (!s) return null;
  if (/^\d+$/.test(s)) return Number(s);
  // "ms" before "m": otherwise "500ms" reads as 500 minutes followed by a stray "s".
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let consumed = 0;
  for (const m of s.matchAll(re)) {
    const n = Number(m[1]);
    total += m[2] === "h" ? n * 3600 : m[2] === "m" ? n * 60 : m[2] === "s" ? n : n / 1000;
    consumed += m[0].length;
  }
  return consumed === s.length ? total : null;
}

/** Help text listing every option. */
export function helpText(): string {
  const lines = ["Usage: deno task start [options]", "", "Options (flag / environment / default):"];
  for (const o of OPTIONS) {
    const flag = (o.short ? `-${o.short}, ` : "    ") + `--${o.name}`;
    lines.push(`  ${flag.padEnd(38)} ${o.env.padEnd(36)} ${o.help}${o.default ? ` [${o.default}]` : ""}`);
  }
  lines.push(`  ${"-h, --help".padEnd(38)} ${"".padEnd(36)} show this help`);
  return lines.join("\n");
}

function isRemote(database: string): boolean {
  return /^https?:\/\//.test(database);
}

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? (i === 0 ? "/" : ".") : path.slice(0, i);
}

function absolute(path: string, cwd: string): string {
  if (path.startsWith("/")) return path;
  const parts = `${cwd}/${path}`.split("/");
  const out: string[] = [];
  for (const p of parts) {
    if (p === "" || p === ".") continue;
    if (p === "..") out.pop();
    else out.push(p);
  }
  return "/" + out.join("/");
}

/**
 * Parses `--name value`, `--name=value`, `-x value` and boolean `--flag` (or `--flag=false`).
 * Our own small parser: node:util's parseArgs costs ~6 MiB of memory to load in Deno.
 */
export function parseFlags(args: string[]): Record<string, string | boolean | undefined> {
  const out: Record<string, string | boolean | undefined> = {};
  const byShort = new Map(OPTIONS.filter((o) => o.short).map((o) => [o.short!, o]));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-h" || arg === "--help") {
      out.help = true;
      continue;
    }
    const long = arg.match(/^--([a-z-]+)(?:=(.*))?$/);
    const short = arg.match(/^-([a-zA-Z])$/);
    const spec = long ? OPTIONS.find((o) => o.name === long[1]) : short ? byShort.get(short[1]) : undefined;
    if (!spec) throw new Error(`Unknown option "${arg}"`);
    const inline = long?.[2];
    if (spec.type === "boolean") {
      out[spec.name] = inline === undefined ? true : /^(1|true|yes|on)$/i.test(inline);
    } else if (inline !== undefined) {
      out[spec.name] = inline;
    } else {
      if (i + 1 >= args.length) throw new Error(`Option "${arg}" needs a value`);
      out[spec.name] = args[++i];
    }
  }
  return out;
}

/** The verification provider's base URL: http(s), no query, fragment or credentials, no trailing slash. */
export function parseRecaptchaHost(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`Invalid value for --recaptcha-host: "${text}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new Error(`Invalid value for --recaptcha-host: "${text}" (an http(s) origin is expected)`);
  }
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** An optional http(s) link target: "" stays "", anything else must be an absolute http(s) URL without credentials. */
export function parseLinkUrl(name: string, text: string): string {
  const value = text.trim();
  if (!value) return "";
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch { /* reported below */ }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password) {
    throw new Error(`Invalid value for --${name}: "${text}" (an http(s) URL is expected)`);
  }
  return url.href;
}

function recaptchaOf(auth: AuthMethod, host: string, key: string, secret: string): RecaptchaConfig | null {
  if (!key && !secret) return null;
  if (!key || !secret) throw new Error("--recaptcha-key and --recaptcha-secret must be set together");
  return auth === "json" ? Object.freeze({ host: parseRecaptchaHost(host), key, secret }) : null;
}

/** Resolves flags + environment into a Config. Throws an Error with a clear message on bad values. */
export function loadConfig(
  args: string[] = Deno.args,
  env: Record<string, string | undefined> = Deno.env.toObject(),
  cwd: string = Deno.cwd(),
): Readonly<Config> & { help: boolean } {
  const values = parseFlags(args);
  const get = (name: string): string => {
    const spec = OPTIONS.find((o) => o.name === name)!;
    const flag = values[name];
    if (flag !== undefined) return String(flag);
    const fromEnv = env[spec.env];
    if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
    return spec.default;
  };
  const bool = (name: string): boolean => /^(1|true|yes|on)$/i.test(get(name));
  const int = (name: string, min: number, max: number): number => {
    const n = Number(get(name));
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`Invalid value for --${name}: "${get(name)}"`);
    }
    return n;
  };
  const bytes = (name: string): number => {
    const m = /^(\d+)\s*([KMGT]?)i?B?$/i.exec(get(name).trim());
    const n = m ? Number(m[1]) * 1024 ** " KMGT".indexOf((m[2] || " ").toUpperCase()) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`Invalid size for --${name}: "${get(name)}"`);
    return n;
  };
  const duration = (name: string): number => {
    const d = parseDuration(get(name));
    if (d === null || d <= 0) throw new Error(`Invalid duration for --${name}: "${get(name)}"`);
    return d;
  };
  const database = get("database");
  const dataDir = isRemote(database) ? absolute("data", cwd) : dirOf(absolute(database, cwd));
  const auth = get("auth");
  if (auth !== "json" && auth !== "proxy" && auth !== "noauth" && auth !== "hook") {
    throw new Error(`Invalid auth method: "${auth}"`);
  }
  const authCommand = get("auth-command").trim();
  if (auth === "hook" && !authCommand) throw new Error("--auth hook needs --auth-command");
  const level = get("log-level");
  if (!["debug", "info", "warn", "error"].includes(level)) throw new Error(`Invalid log level: "${level}"`);
  let baseUrl = get("baseurl").trim().replace(/\/+$/, "");
  if (baseUrl && !baseUrl.startsWith("/")) baseUrl = "/" + baseUrl;
  const root = get("root");
  const config: Config & { help: boolean } = {
    help: Boolean(values.help),
    address: get("address"),
    port: int("port", 0, 65535),
    root: root ? absolute(root, cwd) : `${dataDir}/files`,
    database: isRemote(database) ? database : absolute(database, cwd),
    baseUrl,
    authMethod: auth,
    authHeader: get("auth-header"),
    authCommand,
    trustedProxies: get("trusted-proxies").split(",").map((s) => s.trim()).filter(Boolean),
    tokenExpiration: parseDuration(get("token-expiration")) || 7200,
    enableExec: bool("enable-exec"),
    execTimeout: duration("exec-timeout"),
    execNetwork: bool("exec-network"),
    execUnconfined: bool("exec-unconfined"),
    execMaxProcesses: int("exec-max-processes", 1, 100000),
    minPasswordLength: int("min-password-length", 1, 72),
    logLevel: level as Config["logLevel"],
    enableThumbs: !bool("disable-thumbnails"),
    resizePreview: !bool("disable-preview-resize"),
    followExternalSymlinks: bool("follow-external-symlinks"),
    webdav: bool("webdav"),
    typeDetectionByHeader: !bool("disable-type-detection-by-header"),
    cacheDir: get("cache-dir") ? absolute(get("cache-dir"), cwd) : `${dataDir}/cache`,
    uploadDir: get("upload-dir") ? absolute(get("upload-dir"), cwd) : `${dataDir}/uploads`,
    uploadExpiry: duration("upload-expiry"),
    trashDays: int("trash-days", 0, 36500),
    auditDays: int("audit-days", 0, 36500),
    adminUsername: get("username"),
    adminPassword: get("password"),
    importFilebrowser: get("import-filebrowser") ? absolute(get("import-filebrowser"), cwd) : "",
    loginRateLimit: int("login-rate-limit", 1, 100000),
    extractLimits: {
      maxEntries: int("extract-max-entries", 1, 100_000_000),
      maxBytes: bytes("extract-max-size"),
      maxRatio: int("extract-max-ratio", 1, 1_000_000),
    },
    recaptcha: recaptchaOf(auth, get("recaptcha-host"), get("recaptcha-key"), get("recaptcha-secret")),
    issuesUrl: parseLinkUrl("issues-url", get("issues-url")),
    projectUrl: parseLinkUrl("project-url", get("project-url")),
    version: VERSION,
  };
  return Object.freeze(config);
}
