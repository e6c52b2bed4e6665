/** Test helper for lib/young_gc.ts: a recording `gc()` (the tests run without --expose-gc). */

type GcHolder = { gc?: (options?: unknown) => void };

/** Runs `fn` with a `gc()` stub that records the options of each call, then puts the real one (if any) back. */
export async function withGcStub<T>(fn: (calls: unknown[]) => Promise<T> | T): Promise<T> {
  const holder = globalThis as GcHolder;
  const saved = holder.gc;
  const calls: unknown[] = [];
  holder.gc = (options) => void calls.push(options);
  try {
    return await fn(calls);
  } finally {
    if (saved) holder.gc = saved;
    else delete holder.gc;
  }
}

/** Runs `fn` with no `gc()` at all (as without --expose-gc), then puts the real one (if any) back. */
export async function withoutGc<T>(fn: () => Promise<T> | T): Promise<T> {
  const holder = globalThis as GcHolder;
  const saved = holder.gc;
  delete holder.gc;
  try {
    return await fn();
  } finally {
    if (saved) holder.gc = saved;
  }
}
