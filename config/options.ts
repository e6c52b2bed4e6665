/** Every option of the server: flag, environment variable, default and help text, and the help page. */

/** One option. */
export interface OptionSpec {
  name: string;
  short?: string;
  env: string;
  type: "string" | "boolean";
  help: string;
  default: string;
}

function text(name: string, env: string, value: string, help: string, short?: string): OptionSpec {
  return { name, env, type: "string", default: value, help, ...(short ? { short } : {}) };
}

function bool(name: string, env: string, help: string): OptionSpec {
  return { name, env, type: "boolean", default: "false", help };
}

/** Every option: flag, environment variable, default and help text. */
export const OPTIONS: readonly OptionSpec[] = [
  text("address", "FB_ADDRESS", "127.0.0.1", "address to listen on", "a"),
  text("port", "FB_PORT", "8080", "port to listen on (0 = any free port)", "p"),
  text("root", "FB_ROOT", "", "files root (default: files/ next to the database)", "r"),
  text("database", "FB_DATABASE", "data/filebrowser.kv", "Deno KV file path or remote KV URL", "d"),
  text("baseurl", "FB_BASEURL", "", "base URL prefix, e.g. /files-app", "b"),
  text("auth", "FB_AUTH", "json", "auth method: json, proxy, noauth or hook"),
  text("auth-command", "FB_AUTH_COMMAND", "", "command that decides logins with --auth hook"),
  text("auth-header", "FB_AUTH_HEADER", "X-Forwarded-User", "username header for proxy auth"),
  text(
    "trusted-proxies",
    "FB_TRUSTED_PROXIES",
    "",
    "proxy addresses or CIDR ranges trusted for proxy auth and X-Forwarded-For (default: none)",
  ),
  text("token-expiration", "FB_TOKEN_EXPIRATION", "2h", "token lifetime (Go-style duration: 2h, 90m, 1h30m)"),
  bool("enable-exec", "FB_ENABLE_EXEC", "enable the command runner and event hooks"),
  text("exec-timeout", "FB_EXEC_TIMEOUT", "5m", "wall-clock limit of one command or hook"),
  bool("exec-network", "FB_EXEC_NETWORK", "let commands use the network"),
  bool(
    "exec-unconfined",
    "FB_EXEC_UNCONFINED",
    "run commands without a sandbox when bubblewrap is unavailable (unsafe)",
  ),
  text("exec-max-processes", "FB_EXEC_MAX_PROCESSES", "64", "processes one command may run at once"),
  text(
    "exec-max-memory",
    "FB_EXEC_MAX_MEMORY",
    "1G",
    "memory one command, hook or build may use (suffixes K, M, G, T: powers of 1024)",
  ),
  bool("publish-network", "FB_PUBLISH_NETWORK", "let the publishing build use the network"),
  text("min-password-length", "FB_MIN_PASSWORD_LENGTH", "12", "minimum password length in bytes"),
  text("log-level", "FB_LOG_LEVEL", "info", "debug, info, warn or error"),
  bool("disable-thumbnails", "FB_DISABLE_THUMBNAILS", "disable image thumbnails"),
  bool("disable-preview-resize", "FB_DISABLE_PREVIEW_RESIZE", "serve full images in the preview"),
  bool("webdav", "FB_WEBDAV", "serve WebDAV at <baseurl>/dav/ (HTTP Basic with the account password)"),
  bool(
    "follow-external-symlinks",
    "FB_FOLLOW_EXTERNAL_SYMLINKS",
    "follow symlinks that leave the scope (unsafe)",
  ),
  bool(
    "disable-type-detection-by-header",
    "FB_DISABLE_TYPE_DETECTION_BY_HEADER",
    "detect listing types by extension only",
  ),
  bool(
    "disable-search-snapshot",
    "FB_DISABLE_SEARCH_SNAPSHOT",
    "do not save the search index to disk (every start walks the files root)",
  ),
  text("cache-dir", "FB_CACHE_DIR", "", "cache directory (default: cache/ next to the database)"),
  text(
    "upload-dir",
    "FB_UPLOAD_DIR",
    "",
    "partial uploads directory (default: uploads/ next to the database)",
  ),
  text(
    "import-filebrowser",
    "FB_IMPORT_FILEBROWSER",
    "",
    "first start only: import users, shares and settings from this filebrowser.db",
  ),
  text("upload-expiry", "FB_UPLOAD_EXPIRY", "24h", "remove partial uploads untouched for this long"),
  text("trash-days", "FB_TRASH_DAYS", "30", "days deleted items stay in the trash (0 = delete at once)"),
  text(
    "audit-days",
    "FB_AUDIT_DAYS",
    "90",
    "days audit log entries are kept in the database (0 = none kept)",
  ),
  text(
    "login-rate-limit",
    "FB_LOGIN_RATE_LIMIT",
    "10",
    "password guesses per client and user per minute before 429",
  ),
  text(
    "extract-max-entries",
    "FB_EXTRACT_MAX_ENTRIES",
    "100000",
    "most entries of an archive extracted on the server",
  ),
  text(
    "extract-max-size",
    "FB_EXTRACT_MAX_SIZE",
    "10G",
    "most bytes one extraction writes (suffixes K, M, G, T: powers of 1024)",
  ),
  text(
    "extract-max-ratio",
    "FB_EXTRACT_MAX_RATIO",
    "200",
    "most bytes written per archive byte (zip bombs), judged past the first MiB",
  ),
  text(
    "recaptcha-host",
    "FB_RECAPTCHA_HOST",
    "https://www.google.com",
    "human verification provider (reCAPTCHA v2 API)",
  ),
  text(
    "issues-url",
    "FB_ISSUES_URL",
    "",
    "issue tracker for the error toasts' Report issue link (empty: no link)",
  ),
  text(
    "project-url",
    "FB_PROJECT_URL",
    "",
    "project site the sidebar's product name links to (empty: plain text)",
  ),
  text("recaptcha-key", "FB_RECAPTCHA_KEY", "", "human verification site key (on with the secret)"),
  text("recaptcha-secret", "FB_RECAPTCHA_SECRET", "", "human verification secret"),
  text("username", "FB_ADMIN_USERNAME", "admin", "first admin's username (first start only)"),
  text("password", "FB_ADMIN_PASSWORD", "", "first admin's password (first start only; random if empty)"),
];

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
