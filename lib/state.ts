/** Types of the per-request state and the injected dependencies (no runtime code). */
import type { Config } from "../config.ts";
import type { Settings, StoredUser } from "./types.ts";
import type { Store } from "./storage/mod.ts";
import type { EventHooks } from "./hooks.ts";
import type { ListingCache } from "./fs/listing_cache.ts";
import type { FolderSizeCache } from "./fs/folder_size_cache.ts";
import type { ExecEnv } from "./runner/run.ts";
import type { BuildRunner } from "./publish/build.ts";
import type { SearchIndex } from "./search/index/mod.ts";
import type { RequestActivity } from "./request_activity.ts";
import type { StateCache } from "./storage/state_cache.ts";
import type { PreviewCache } from "./thumbs/mod.ts";
import type { Throttle } from "./auth/throttle.ts";
import type { RequestContext } from "./request_context.ts";
import type { UsageCache } from "./quota.ts";
import type { UploadLeases } from "./upload/lock.ts";
import type { QuotaLedger } from "./upload/reservations.ts";
import type { StagingSync } from "./upload/background_sync.ts";
import type { PropfindCache } from "./webdav/propfind_cache.ts";
import type { DavCredentials } from "./webdav/credentials.ts";
import type { AuditGate } from "./audit/flood.ts";

/** The password-guess throttles of the app, one per kind of secret (lib/auth/throttle.ts). */
export interface GuessThrottles {
  /** Logins: the login form, WebDAV and every other account password check share this budget. */
  login: Throttle;
  /** Share link passwords. */
  share: Throttle;
  /** Current-password checks of a logged-in user (password change, 2FA, app passwords). */
  reauth: Throttle;
  /** Wrong one-time codes per account, whatever the client (login and turning two-factor login off). */
  secondFactor: Throttle;
}

/** Everything the app needs from the outside, built by `createDeps()` (lib/boot.ts) for main.ts and tests alike. */
export interface AppDeps {
  config: Readonly<Config>;
  kv: Deno.Kv;
  store: Store;
  hooks: EventHooks;
  /** How commands run (runner and hooks); null or absent when command execution is off. */
  exec?: ExecEnv | null;
  /** Clock in milliseconds; injectable for tests. */
  now: () => number;
  /** The preview (thumbnail) service on `--cache-dir`. */
  previews: PreviewCache;
  /** Password-guess counters, shared by every instance on the same KV. */
  throttles: GuessThrottles;
  /** Upload leases held by this app, parked between chunks (lib/upload/lock.ts). */
  leases: UploadLeases;
  /** Scope byte counts for quotas, dropped by writes (middleware/usage_invalidation.ts). */
  usage: UsageCache;
  /** Quota held by this app's writes in flight, per scope (lib/upload/reservations.ts). */
  quotaLedger: QuotaLedger;
  /** Background fdatasyncs of this app's tus staging files (lib/upload/background_sync.ts). */
  stagingSync: StagingSync;
  /** Kept WebDAV PROPFIND answers, bounded in bytes (lib/webdav/propfind_cache.ts). */
  propfindCache: PropfindCache;
  /** WebDAV passwords verified in the last minutes, so clients sending them on every request skip bcrypt. */
  davCredentials: DavCredentials;
  /** Counts refused anonymous requests past their share of the audit log (lib/audit/flood.ts). */
  auditGate: AuditGate;
  /** Whether path rules fold case under the root: probed once, on first use (lib/fs/case_probe.ts). */
  foldCase: () => Promise<boolean>;
  /** Requests in flight: background work (the search index) lets them go first (lib/request_activity.ts). */
  activity: RequestActivity;
  /** Directory listing cache (its watchers are closed by `closeDeps()`, lib/background.ts). */
  listings: ListingCache;
  /** Folder sizes cached until a watcher sees a change (closed by `closeDeps()`). */
  folderSizes: FolderSizeCache;
  /** Replaces the confined build after a publish (tests); none: the sandbox of `exec` (lib/publish/build.ts). */
  buildRunner?: BuildRunner;
  /**
   * Settings, users and sessions in memory (close it on shutdown): cleared on every write through lib/storage and,
   * when several instances share the KV, by a watch on the state generation.
   */
  cache: StateCache;
  /**
   * Filename index of the server root, started by `startBackground()` (lib/background.ts); searches walk the disk
   * until its first walk is done.
   */
  searchIndex: SearchIndex;
}

/** Per-request variables (Hono `c.var`). `user` is set by the auth middleware on protected routes. */
export interface AppState {
  deps: AppDeps;
  settings: Settings;
  user: StoredUser;
  /** The context of the authenticated request (set with `user` by the auth middleware). */
  ctx: RequestContext;
  /** Session id of the token used, when authenticated. */
  sessionId: string;
  /** True when the response should carry `X-Renew-Token: true`. */
  renew: boolean;
  /** Facts only the route knows for the audit entry of this request (middleware/audit_trail.ts). */
  auditNote?: { action?: string; path?: string; target?: string; detail?: string };
}

/** The Hono env of the app. */
export type AppEnv = { Variables: AppState };
