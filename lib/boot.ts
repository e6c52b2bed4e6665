/**
 * Start-up: checks that can fail (folders, database, first admin) run before anything is written, then the folders,
 * KV, settings and the first admin are created. Failures are Errors whose message is one line naming the flag.
 */
import type { Config } from "../config.ts";
import { ensureFirstStart } from "./auth/mod.ts";
import { checkPasswordPolicy } from "./auth/passwords.ts";
import { defaultSettings, normalizeSettings } from "./settings.ts";
import type { Settings } from "./types.ts";
import { noopHooks } from "./hooks.ts";
import { createExecEnv, type ExecEnv } from "./runner/mod.ts";
import { createEventHooks } from "./runner/hooks.ts";
import { formatReport, importFilebrowser } from "./import/mod.ts";
import { openKv, Store, users } from "./storage/mod.ts";
import { StateCache } from "./storage/state_cache.ts";
import type { AppDeps } from "./state.ts";
import { guessThrottle, secondFactorThrottle } from "./auth/throttle.ts";
import { isCaseInsensitive } from "./fs/case_probe.ts";
import { floorMode } from "./fs/floor.ts";
import { createPreviewService } from "./thumbs/mod.ts";
import { UsageCache } from "./quota.ts";
import { UploadLeases } from "./upload/lock.ts";
import { QuotaLedger } from "./upload/reservations.ts";
import { StagingSync } from "./upload/background_sync.ts";
import { PropfindCache } from "./webdav/propfind_cache.ts";
import { normalizeUsername } from "./usernames.ts";
import { vpathDir } from "./fs/path.ts";
import { ListingCache } from "./fs/listing_cache.ts";
import { FolderSizeCache } from "./fs/folder_size_cache.ts";
import { SearchIndex, type SearchIndexOptions } from "./search/index/mod.ts";
import { RequestActivity } from "./request_activity.ts";
import { DavCredentials } from "./webdav/credentials.ts";
import { AuditGate } from "./audit/flood.ts";

function isLocalFile(database: string): boolean {
  return !/^https?:\/\//.test(database) && database !== ":memory:";
}

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch (err) {
    // ENOTDIR: an ancestor is a file; the caller walks up and reports it.
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return null;
    throw err;
  }
}

/** A folder the server creates: the flag that sets it, the value shown in messages, the folder itself. */
interface Folder {
  flag: string;
  shown: string;
  dir: string;
}

function foldersOf(config: Readonly<Config>): Folder[] {
  const out: Folder[] = [];
  if (isLocalFile(config.database)) {
    out.push({ flag: "--database", shown: config.database, dir: vpathDir(config.database) });
  }
  for (
    const [flag, dir] of [["--root", config.root], ["--cache-dir", config.cacheDir], [
      "--upload-dir",
      config.uploadDir,
    ]]
  ) {
    out.push({ flag, shown: dir, dir });
  }
  return out;
}

/** The missing levels of a folder, outermost first; throws when the folder or an ancestor is not a directory. */
async function missingLevels(folder: Folder): Promise<string[]> {
  const missing: string[] = [];
  let p = folder.dir;
  for (;;) {
    const info = await statOrNull(p);
    if (info) {
      if (info.isDirectory) return missing;
      throw new Error(
        p === folder.shown
          ? `Cannot use ${folder.flag} "${p}": not a directory`
          : `Cannot create ${folder.flag} "${folder.shown}": "${p}" is not a directory`,
      );
    }
    missing.unshift(p);
    if (p === "/") return missing;
    p = vpathDir(p);
  }
}

/** Checks the first admin's configured name and password against the rules. */
export function checkFirstAdmin(config: Readonly<Config>, minPasswordLength: number): void {
  try {
    normalizeUsername(config.adminUsername);
    if (config.adminPassword) checkPasswordPolicy(config.adminPassword, minPasswordLength);
  } catch (err) {
    const flag = config.adminPassword && !/username/.test((err as Error).message)
      ? "--password (FB_ADMIN_PASSWORD)"
      : "--username (FB_ADMIN_USERNAME)";
    throw new Error(`Cannot create the first admin: ${flag}: ${(err as Error).message}`);
  }
}

/**
 * Checks, writing nothing, what would make the start fail half-way: folders that cannot be created and, on a first
 * start (no database file yet), an unusable admin name or password.
 */
export async function checkStartup(config: Readonly<Config>): Promise<void> {
  for (const folder of foldersOf(config)) await missingLevels(folder);
  if (isLocalFile(config.database)) {
    const db = await statOrNull(config.database);
    if (db && !db.isFile) throw new Error(`Cannot use --database "${config.database}": not a file`);
    if (!db) checkFirstAdmin(config, config.minPasswordLength);
  }
}

/** Creates the folders; when one fails, removes those this call created and throws naming the flag. */
async function createFolders(config: Readonly<Config>): Promise<void> {
  const created: string[] = [];
  for (const folder of foldersOf(config)) {
    try {
      for (const level of await missingLevels(folder)) {
        await Deno.mkdir(level);
        created.push(level);
      }
    } catch (err) {
      // Undo: a failed start leaves nothing behind.
      for (const dir of created.reverse()) await Deno.remove(dir).catch(() => {});
      const reason = err instanceof Deno.errors.AlreadyExists ? "exists" : (err as Error).message;
      throw new Error(
        reason.startsWith("Cannot") ? reason : `Cannot create ${folder.flag} "${folder.shown}": ${reason}`,
      );
    }
  }
}

/** What createDeps needs besides the config. */
export interface CreateDepsOptions {
  kv: Deno.Kv;
  /** How commands run; null or absent when command execution is off. */
  exec?: ExecEnv | null;
  /** Clock in milliseconds (default Date.now). */
  now?: () => number;
  /** Options of the filename index (tests: no periodic reconciliation). */
  searchIndex?: SearchIndexOptions;
}

/**
 * Builds the app's dependencies around an open KV: the one place the services that live as long as the app are
 * created (state cache, previews, throttles, the case-folding probe, the listing and folder-size caches, the
 * filename index). Writes nothing and starts nothing: watchers are made on first use, and the index's walk
 * starts with `startBackground()` (lib/background.ts). Release them with `closeDeps()`.
 */
export function createDeps(config: Readonly<Config>, options: CreateDepsOptions): AppDeps {
  const { kv, exec } = options;
  const store = new Store(kv);
  const now = options.now ?? Date.now;
  const limit = config.loginRateLimit;
  let foldCase: Promise<boolean> | null = null;
  const activity = new RequestActivity();
  const usage = new UsageCache();
  // Quota holds of writes in flight, shared through KV with other instances (lib/upload/quota_ledger.ts).
  const quotaLedger = new QuotaLedger(kv, { now });
  return {
    config,
    kv,
    store,
    hooks: exec
      ? createEventHooks({ exec, store, root: config.root, usage: { usage, quotaLedger } })
      : noopHooks,
    exec,
    now,
    cache: new StateCache(kv, { now }),
    previews: createPreviewService({ cacheDir: config.cacheDir }),
    throttles: {
      login: guessThrottle(kv, "login", limit),
      share: guessThrottle(kv, "share", limit),
      reauth: guessThrottle(kv, "reauth", limit),
      secondFactor: secondFactorThrottle(kv),
    },
    usage,
    leases: new UploadLeases(kv),
    quotaLedger,
    stagingSync: new StagingSync(),
    propfindCache: new PropfindCache(),
    davCredentials: new DavCredentials(),
    // Refused anonymous requests past a few a minute per client are counted, not logged one by one.
    auditGate: new AuditGate(),
    foldCase: () => foldCase ??= isCaseInsensitive(config.root),
    activity,
    // Directory listings in memory, invalidated by file-system events (lib/fs/listing_cache.ts).
    listings: new ListingCache(),
    // Folder sizes until a recursive watcher sees a change (lib/fs/folder_size_cache.ts).
    folderSizes: new FolderSizeCache(),
    // Searches answer from it once its first walk is done; they walk the disk until then. It is saved to
    // config.searchSnapshot on close and loaded from it at start, so a restart is warm.
    // Its reads wait while requests are in flight: a listing of the folder that just changed goes first.
    searchIndex: new SearchIndex(config.root, {
      snapshot: config.searchSnapshot,
      pause: () => activity.whenIdle(),
      ...options.searchIndex,
    }),
  };
}

/** Options of bootDeps. */
export interface BootOptions {
  /** An open KV to use instead of opening `--database`. */
  kv?: Deno.Kv;
  now?: () => number;
  /** Replaces the exec environment built from the config (tests: an unconfined one). */
  exec?: ExecEnv | null;
  /** Options of the filename index. */
  searchIndex?: SearchIndexOptions;
}

/**
 * Opens storage, creates the folders and runs the first-start setup (settings, secret, first admin). With
 * `--enable-exec` it probes the sandbox first: throws ExecUnavailableError when commands cannot be confined (and
 * `--exec-unconfined` was not given), before anything is written.
 */
export async function bootDeps(config: Readonly<Config>, options: BootOptions = {}) {
  const { exec, warnings } = options.exec !== undefined
    ? { exec: options.exec, warnings: [] as string[] }
    : await createExecEnv(config);
  await createFolders(config);
  let kv = options.kv;
  try {
    kv ??= await openKv(config.database);
  } catch (err) {
    throw new Error(`Cannot open --database "${config.database}": ${(err as Error).message}`);
  }
  const store = new Store(kv);
  const stored = await store.findSettings();
  const settings = stored
    ? normalizeSettings(stored)
    : defaultSettings({ authMethod: config.authMethod, minPasswordLength: config.minPasswordLength });
  // An existing but empty database is a first start too: check the admin before writing anything into it.
  const empty = (await users.listUsers(kv)).length === 0;
  if (empty) checkFirstAdmin(config, settings.minimumPasswordLength);
  let imported: string[] = [];
  if (config.importFilebrowser && empty) {
    // Before our defaults are stored: the import brings filebrowser's settings, users (and so the admins) along.
    imported = await importOnFirstStart(kv, config.importFilebrowser, settings);
  } else if (config.importFilebrowser) {
    warnings.push("--import-filebrowser is read on the first start only; use `deno task import-filebrowser`");
  }
  const current = await store.findSettings();
  if (!current) await store.saveSettings(settings);
  const effective = current ? normalizeSettings(current) : settings;
  const deps = createDeps(config, { kv, exec, now: options.now, searchIndex: options.searchIndex });
  await store.getSecret();
  const firstStart = await ensureFirstStart(deps, effective);
  // The disk floor needs Linux with glibc and the FFI permission (docs/security.md#the-disk-floor).
  if (!config.followExternalSymlinks && floorMode() === "paths") {
    warnings.push(
      "disk floor unavailable (no FFI or not Linux with glibc): file operations re-resolve checked paths, so a " +
        "folder swapped for a symlink between the check and the use is not caught",
    );
  }
  return { deps, firstStart, warnings, imported };
}

/** Imports a filebrowser database into an empty one; a bad file throws naming the flag (nothing is written). */
async function importOnFirstStart(kv: Deno.Kv, path: string, settings: Settings): Promise<string[]> {
  let file: Uint8Array;
  try {
    file = await Deno.readFile(path);
  } catch (err) {
    throw new Error(`Cannot read --import-filebrowser "${path}": ${(err as Error).message}`);
  }
  try {
    const report = await importFilebrowser(kv, file, {
      source: path.split("/").pop(),
      initialSettings: settings,
    });
    return formatReport(report);
  } catch (err) {
    throw new Error(`Cannot import --import-filebrowser "${path}": ${(err as Error).message}`);
  }
}
