/** Event hooks around file operations (docs/api.md); `lib/runner/hooks.ts` runs them when exec is enabled. */
import type { StoredUser } from "./types.ts";

/** The events that have before/after hooks. */
export type HookEvent = "save" | "copy" | "rename" | "upload" | "delete" | "restore";

/** What a hook is told about an operation. */
export interface HookContext {
  user: StoredUser;
  /** Absolute on-disk path of the file. */
  file: string;
  /** Absolute on-disk destination (copy/rename), else the scope root. */
  destination: string;
}

/** Runs before/after hooks; a failing `before` hook must prevent the operation (throw). */
export interface EventHooks {
  before(event: HookEvent, ctx: HookContext): Promise<void>;
  after(event: HookEvent, ctx: HookContext): Promise<void>;
}

/** Hooks that do nothing (command execution disabled, or no runner yet). */
export const noopHooks: EventHooks = {
  before: () => Promise.resolve(),
  after: () => Promise.resolve(),
};

/** Runs `op` between the before and after hooks of `event`. */
export async function withHooks<T>(
  hooks: EventHooks,
  event: HookEvent,
  ctx: HookContext,
  op: () => Promise<T>,
): Promise<T> {
  await hooks.before(event, ctx);
  const result = await op();
  await hooks.after(event, ctx);
  return result;
}
