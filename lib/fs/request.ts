/** What the mutating file operations need besides the gate: hooks, preview cache, share cleanup. */
import type { EventHooks, HookContext } from "../hooks.ts";
import type { AppDeps } from "../state.ts";
import type { StoredUser } from "../types.ts";
import type { PreviewCache } from "../thumbs/mod.ts";
import { type GateContext, scopeDirOf } from "./gate.ts";

/** What a file operation needs to know about the request: the part of lib/request_context.ts it uses. */
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
  deps?: Pick<AppDeps, "config" | "kv" | "now" | "usage" | "quotaLedger">;
}

/** The hook context of an operation on `file` (and `destination` for copy/rename). */
export function hookContext(req: FsRequest, file: string, destination?: string): HookContext {
  return { user: req.user, file, destination: destination ?? scopeDirOf(req.gate) };
}
