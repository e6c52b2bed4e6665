/** Creates the app's dependencies from a Config: opens KV, writes first-start settings and the admin. */
import type { Config } from "../config.ts";
import { ensureFirstStart } from "./auth/mod.ts";
import { defaultSettings } from "./settings.ts";
import { noopHooks } from "./hooks.ts";
import { createExecEnv } from "./runner/mod.ts";
import { createEventHooks } from "./runner/hooks.ts";
import { openKv, Store } from "./storage/mod.ts";
import type { AppDeps } from "./state.ts";

/**
 * Opens storage, prepares folders and runs the first-start setup. With `--enable-exec` it probes the sandbox
 * first: throws ExecUnavailableError when commands cannot be confined (and `--exec-unconfined` was not given).
 */
export async function bootDeps(config: Readonly<Config>, options: { kv?: Deno.Kv; now?: () => number } = {}) {
  const { exec, warnings } = await createExecEnv(config);
  if (!/^https?:\/\//.test(config.database) && config.database !== ":memory:") {
    await Deno.mkdir(config.database.replace(/\/[^/]*$/, "") || "/", { recursive: true });
  }
  for (const dir of [config.root, config.cacheDir, config.uploadDir]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  const kv = options.kv ?? await openKv(config.database);
  const store = new Store(kv);
  let settings = await store.findSettings();
  if (!settings) {
    settings = defaultSettings({
      authMethod: config.authMethod,
      minPasswordLength: config.minPasswordLength,
    });
    await store.saveSettings(settings);
  }
  const hooks = exec ? createEventHooks({ exec, store, root: config.root }) : noopHooks;
  const deps: AppDeps = { config, kv, store, hooks, exec, now: options.now ?? Date.now };
  await store.getSecret();
  const firstStart = await ensureFirstStart(deps, settings);
  return { deps, firstStart, warnings };
}
