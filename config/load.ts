/** Resolves flags, then `FB_*` variables, then defaults into the frozen Config. */
import { absolutePath, vpathDir } from "../lib/fs/path.ts";
import { OPTIONS } from "./options.ts";
import { parseDuration, parseFlags, parseLinkUrl, parseRecaptchaHost, parseSize } from "./parse.ts";
import { type AuthMethod, type Config, type RecaptchaConfig, VERSION } from "./types.ts";

function isRemote(database: string): boolean {
  return /^https?:\/\//.test(database);
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
    const n = parseSize(get(name));
    if (n === null) throw new Error(`Invalid size for --${name}: "${get(name)}"`);
    return n;
  };
  const duration = (name: string): number => {
    const d = parseDuration(get(name));
    if (d === null || d <= 0) throw new Error(`Invalid duration for --${name}: "${get(name)}"`);
    return d;
  };
  const database = get("database");
  const dataDir = isRemote(database) ? absolutePath("data", cwd) : vpathDir(absolutePath(database, cwd));
  const auth = get("auth");
  if (auth !== "json" && auth !== "proxy" && auth !== "noauth" && auth !== "hook") {
    throw new Error(`Invalid auth method: "${auth}"`);
  }
  const authCommand = get("auth-command").trim();
  if (auth === "hook" && !authCommand) throw new Error("--auth hook needs --auth-command");
  const trustedProxies = get("trusted-proxies").split(",").map((s) => s.trim()).filter(Boolean);
  // Nothing is trusted by default: a proxy login would be refused on every request.
  if (auth === "proxy" && trustedProxies.length === 0) {
    throw new Error(
      "--auth proxy needs --trusted-proxies: the proxy's address, e.g. 127.0.0.1,::1 on this host",
    );
  }
  const level = get("log-level");
  if (!["debug", "info", "warn", "error"].includes(level)) throw new Error(`Invalid log level: "${level}"`);
  let baseUrl = get("baseurl").trim().replace(/\/+$/, "");
  if (baseUrl && !baseUrl.startsWith("/")) baseUrl = "/" + baseUrl;
  const root = get("root");
  const cacheDir = get("cache-dir") ? absolutePath(get("cache-dir"), cwd) : `${dataDir}/cache`;
  const config: Config & { help: boolean } = {
    help: Boolean(values.help),
    address: get("address"),
    port: int("port", 0, 65535),
    root: root ? absolutePath(root, cwd) : `${dataDir}/files`,
    database: isRemote(database) ? database : absolutePath(database, cwd),
    baseUrl,
    authMethod: auth,
    authHeader: get("auth-header"),
    authCommand,
    trustedProxies,
    tokenExpiration: parseDuration(get("token-expiration")) || 7200,
    enableExec: bool("enable-exec"),
    execTimeout: duration("exec-timeout"),
    execNetwork: bool("exec-network"),
    execUnconfined: bool("exec-unconfined"),
    execMaxProcesses: int("exec-max-processes", 1, 100000),
    execMaxMemory: bytes("exec-max-memory"),
    publishNetwork: bool("publish-network"),
    minPasswordLength: int("min-password-length", 1, 72),
    logLevel: level as Config["logLevel"],
    enableThumbs: !bool("disable-thumbnails"),
    resizePreview: !bool("disable-preview-resize"),
    followExternalSymlinks: bool("follow-external-symlinks"),
    webdav: bool("webdav"),
    typeDetectionByHeader: !bool("disable-type-detection-by-header"),
    cacheDir,
    searchSnapshot: bool("disable-search-snapshot")
      ? ""
      : `${isRemote(database) || database === ":memory:" ? cacheDir : dataDir}/search-index.snapshot`,
    uploadDir: get("upload-dir") ? absolutePath(get("upload-dir"), cwd) : `${dataDir}/uploads`,
    uploadExpiry: duration("upload-expiry"),
    trashDays: int("trash-days", 0, 36500),
    auditDays: int("audit-days", 0, 36500),
    adminUsername: get("username"),
    adminPassword: get("password"),
    importFilebrowser: get("import-filebrowser") ? absolutePath(get("import-filebrowser"), cwd) : "",
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
