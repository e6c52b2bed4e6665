/**
 * Change signals for the in-memory caches of settings, users and sessions (lib/storage/state_cache.ts).
 *
 * Every write of those records also bumps `["meta", "state_generation"]` in the same atomic operation, so another
 * instance on the same KV (watching that key, or re-reading it) learns that its copies are stale. Writers in this
 * process also call {@link notifyStateWrite}, which clears this process's caches on that KV handle before the
 * write's caller goes on: a logout or a permission change is seen by the next request, not a moment later.
 */
import { keys } from "./keys.ts";

const listeners = new WeakMap<Deno.Kv, Set<() => void>>();

/** Adds the generation bump to an atomic operation that writes settings, a user or a session. */
export function bumpStateGeneration(op: Deno.AtomicOperation): Deno.AtomicOperation {
  return op.sum(keys.stateGeneration(), 1n);
}

/** Tells this process's caches on `kv` that settings, users or sessions changed. */
export function notifyStateWrite(kv: Deno.Kv): void {
  for (const fn of listeners.get(kv) ?? []) fn();
}

/** Calls `fn` after every local write of settings, users or sessions on `kv`; returns the unsubscribe. */
export function onStateWrite(kv: Deno.Kv, fn: () => void): () => void {
  let set = listeners.get(kv);
  if (!set) listeners.set(kv, set = new Set());
  set.add(fn);
  return () => set.delete(fn);
}
