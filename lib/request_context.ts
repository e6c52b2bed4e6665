/**
 * The context of an authenticated request, built once by the auth middleware (middleware/request_context.ts) and
 * read by routes as `c.var.ctx`: who asks, the gate their paths go through, and the services an operation uses.
 * File operations (lib/fs), uploads (lib/upload), shares and WebDAV take it, or the part of it they need.
 */
import type { GateContext } from "./fs/gate.ts";
import type { EventHooks } from "./hooks.ts";
import type { AppDeps } from "./state.ts";
import type { PreviewCache } from "./thumbs/mod.ts";
import type { Settings, StoredUser } from "./types.ts";

/** Everything an operation needs to know about the request besides its own arguments. */
export interface RequestContext {
  user: StoredUser;
  /** The gate of this user: server root, scope, global and user rules, symlink policy, case folding. */
  gate: GateContext;
  settings: Settings;
  hooks: EventHooks;
  /** Preview cache whose entries are dropped when a file changes, moves or goes away. */
  previews: PreviewCache;
  kv: Deno.Kv;
  /** Clock in milliseconds. */
  now: () => number;
  /** The app's dependencies, for what the fields above do not cover (trash, quotas, listings, exec). */
  deps: AppDeps;
}

/** Builds the context of a request by `user` (the gate's case folding is probed once per app). */
export async function createRequestContext(
  deps: AppDeps,
  settings: Settings,
  user: StoredUser,
): Promise<RequestContext> {
  const gate: GateContext = {
    root: deps.config.root,
    user,
    globalRules: settings.rules,
    followExternalSymlinks: deps.config.followExternalSymlinks,
    foldCase: await deps.foldCase(),
  };
  return {
    user,
    gate,
    settings,
    hooks: deps.hooks,
    previews: deps.previews,
    kv: deps.kv,
    now: deps.now,
    deps,
  };
}
