/** Test helpers: an app on a temp root and in-memory KV, with users and their tokens. */
import { Hono, type MiddlewareHandler } from "hono";
import { createApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import type { Config } from "../config.ts";
import { issueToken } from "../lib/auth/mod.ts";
import { bootDeps } from "../lib/boot.ts";
import type { ExecEnv } from "../lib/runner/mod.ts";
import { defaultSettings, normalizeSettings } from "../lib/settings.ts";
import type { AppDeps, AppEnv } from "../lib/state.ts";
import { type HttpError, toHttpError } from "../lib/errors.ts";
import { Store, users } from "../lib/storage/mod.ts";
import type { Permissions, Settings, StoredUser } from "../lib/types.ts";
import { PERMISSION_NAMES } from "../lib/types.ts";
import { userFromDefaults } from "../lib/users.ts";
import { startPublishing } from "../lib/publish/mod.ts";
import { closeDeps } from "../lib/background.ts";

/** bcrypt hash of TEST_PASSWORD (cost 4, so tests stay fast; verification accepts any cost). */
export const TEST_PASSWORD = "correct-horse-battery";
const TEST_HASH = "$2b$04$ymAxpE7LaUns9Mlhy7zlF.CQMow7nXFvc2YvOirrJLG97iCS2H8Gq";

/** A user to create in a test app. */
export interface TestUserSpec {
  username: string;
  /** Permissions to grant; "all" grants every one (admin included). Default: none. */
  perm?: Partial<Permissions> | "all";
  scope?: string;
  rules?: StoredUser["rules"];
  hideDotfiles?: boolean;
  lockPassword?: boolean;
  commands?: string[];
  /** Storage quota in bytes (0 or absent: none). */
  quota?: number;
}

/** Options of testApp. */
export interface TestAppOptions {
  users?: TestUserSpec[];
  settings?: Partial<Settings>;
  config?: Partial<Config>;
  /** Replaces the exec environment built from the config (`--enable-exec`): e.g. an unconfined one. */
  exec?: ExecEnv | null;
  /**
   * Start the app's filename index (main.ts does, through lib/background.ts); otherwise searches walk the disk.
   * Before each /api/search request the index is reconciled with the disk, so tests see what they just wrote
   * without waiting for the watcher.
   */
  searchIndex?: boolean;
  /** Open KV on this file instead of in memory (to share it with a second instance). */
  kvPath?: string;
}

/** A running test app. */
export interface TestApp {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  /** Absolute path of the files root. */
  root: string;
  /** Temp dir holding root, cache and uploads. */
  dir: string;
  /** Token per username. */
  tokens: Record<string, string>;
  /** User record per username. */
  users: Record<string, StoredUser>;
  /** Shorthand for app.request with an X-Auth token of `as` (a username). */
  request(path: string, init?: RequestInit & { as?: string }): Promise<Response>;
  close(): Promise<void>;
}

/** Full permissions. */
export const ALL_PERMS: Permissions = Object.fromEntries(
  PERMISSION_NAMES.map((k) => [k, true]),
) as unknown as Permissions;

/**
 * Creates an app on a temp directory and in-memory KV with the given users (user 1 is an admin "admin"), through
 * the boot path of main.ts: lib/boot.ts builds the dependencies (the users exist first, so no admin is generated).
 */
export async function testApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = await Deno.makeTempDir({ prefix: "fbtest-" });
  const root = `${dir}/root`;
  await Deno.mkdir(root, { recursive: true });
  const base = loadConfig(
    [
      "--root",
      root,
      "--database",
      ":memory:",
      "--cache-dir",
      `${dir}/cache`,
      "--upload-dir",
      `${dir}/uploads`,
    ],
    {},
    dir,
  );
  const config = Object.freeze({ ...base, database: ":memory:", ...options.config }) as Readonly<Config>;
  const kv = await Deno.openKv(options.kvPath ?? ":memory:");
  const store = new Store(kv);
  const settings = normalizeSettings({ ...defaultSettings(), ...options.settings });
  await store.saveSettings(settings);
  const specs: TestUserSpec[] = [{ username: "admin", perm: "all" }, ...(options.users ?? [])];
  const made: Record<string, StoredUser> = {};
  const tokens: Record<string, string> = {};
  for (const spec of specs) {
    const data = userFromDefaults(settings, spec.username, TEST_HASH);
    const perm = Object.fromEntries(
      PERMISSION_NAMES.map((k) => [k, spec.perm === "all" ? true : !!spec.perm?.[k]]),
    );
    data.perm = perm as unknown as Permissions;
    data.scope = spec.scope ?? "/";
    data.rules = spec.rules ?? [];
    data.hideDotfiles = spec.hideDotfiles ?? false;
    data.lockPassword = spec.lockPassword ?? false;
    data.commands = spec.commands ?? [];
    if (spec.quota) data.quota = spec.quota;
    await Deno.mkdir(root + (data.scope === "/" ? "" : data.scope), { recursive: true });
    made[spec.username] = await users.createUser(kv, data);
  }
  // No periodic reconciliation: the request helper reconciles before each search instead.
  const { deps } = await bootDeps(config, { kv, exec: options.exec, searchIndex: { reconcileMs: 0 } });
  for (const [name, user] of Object.entries(made)) tokens[name] = await issueToken(deps, user);
  // main.ts starts the index with the other background work (lib/background.ts); tests start only what they use.
  if (options.searchIndex) await deps.searchIndex.start();
  const app = createApp(deps);
  // Publish schedules are due through the KV queue, as in main.ts.
  const publishing = startPublishing(deps);
  return {
    app,
    deps,
    root,
    dir,
    tokens,
    users: made,
    async request(path, init = {}) {
      if (options.searchIndex && path.startsWith("/api/search")) await deps.searchIndex.refresh();
      const headers = new Headers(init.headers);
      if (init.as) headers.set("X-Auth", tokens[init.as]);
      return await app.request(path, { ...init, headers });
    },
    async close() {
      await closeDeps(deps);
      await publishing;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * A tiny app for middleware tests: sets `deps` and `settings` as app.ts does, runs `middleware`, and answers
 * errors with their status (and headers) only.
 */
export function middlewareApp(deps: AppDeps, ...middleware: MiddlewareHandler<AppEnv>[]): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    c.set("settings", await deps.cache.settings());
    await next();
  });
  for (const m of middleware) app.use("*", m);
  app.onError((err, c) => {
    const httpErr: HttpError = toHttpError(err);
    return c.body(httpErr.code, httpErr.status as 400, httpErr.headers);
  });
  return app;
}
