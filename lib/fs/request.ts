/** What the mutating file operations need besides the gate: hooks, preview cache, share cleanup. */
import type { EventHooks, HookContext } from "../hooks.ts";
import type { AppDeps, AppState } from "../state.ts";
import type { StoredUser } from "../types.ts";
import { createPreviewService, type PreviewCache } from "../thumbs/mod.ts";
import { type GateContext, gateContextOf, scopeDirOf } from "./gate.ts";

/** Everything a file operation needs to know about the request. */
export interface FsRequest {
  gate: GateContext;
  user: StoredUser;
  hooks: EventHooks;
  /** Preview cache whose entries are dropped when a file changes, moves or goes away. */
  previews?: Pick<PreviewCache, "dropPreviews">;
  /** KV for removing share links on delete (docs/api.md#resources). */
  kv?: Deno.Kv;
  now?: () => number;
  /** The app's dependencies, for the trash and quotas; absent = permanent deletes and no quota checks. */
  deps?: Pick<AppDeps, "config" | "kv" | "now">;
}

const previewServices = new Map<string, PreviewCache>();

/** The process-wide preview service for a cache directory (one per directory, created on first use). */
export function previewServiceFor(cacheDir: string): PreviewCache {
  let service = previewServices.get(cacheDir);
  if (!service) {
    service = createPreviewService({ cacheDir });
    previewServices.set(cacheDir, service);
  }
  return service;
}

/** Builds the FsRequest of an authenticated request from the app state. */
export function fsRequestOf(state: AppState): FsRequest {
  return {
    gate: gateContextOf(state),
    user: state.user,
    hooks: state.deps.hooks,
    previews: previewServiceFor(state.deps.config.cacheDir),
    kv: state.deps.kv,
    now: state.deps.now,
    deps: state.deps,
  };
}

/** The hook context of an operation on `file` (and `destination` for copy/rename). */
export function hookContext(req: FsRequest, file: string, destination?: string): HookContext {
  return { user: req.user, file, destination: destination ?? scopeDirOf(req.gate) };
}
