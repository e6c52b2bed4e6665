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
import type { StateCache } from "./storage/state_cache.ts";

/** Everything the app needs from the outside, created once in main.ts (or by tests). */
export interface AppDeps {
  config: Readonly<Config>;
  kv: Deno.Kv;
  store: Store;
  hooks: EventHooks;
  /** How commands run (runner and hooks); null or absent when command execution is off. */
  exec?: ExecEnv | null;
  /** Clock in milliseconds; injectable for tests. */
  now: () => number;
  /** Directory listing cache (watchers: close it on shutdown); none = every listing reads the disk. */
  listings?: ListingCache;
  /** Folder sizes cached until a watcher sees a change (close it on shutdown); none = every request walks. */
  folderSizes?: FolderSizeCache;
  /** Runs the site's build command after a publish (exec only); none = spawn it directly (lib/publish/build.ts). */
  buildRunner?: BuildRunner;
  /** Settings, users and sessions in memory (close it on shutdown); none = every request reads them from KV. */
  cache?: StateCache;
  /** Filename index of the server root (close it on shutdown); none = every search walks the disk. */
  searchIndex?: SearchIndex;
}

/** Per-request variables (Hono `c.var`). `user` is set by the auth middleware on protected routes. */
export interface AppState {
  deps: AppDeps;
  settings: Settings;
  user: StoredUser;
  /** Session id of the token used, when authenticated. */
  sessionId: string;
  /** True when the response should carry `X-Renew-Token: true`. */
  renew: boolean;
  /** Facts only the route knows for the audit entry of this request (middleware/audit_trail.ts). */
  auditNote?: { action?: string; path?: string; target?: string; detail?: string };
}

/** The Hono env of the app. */
export type AppEnv = { Variables: AppState };
