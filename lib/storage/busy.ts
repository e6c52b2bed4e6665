/**
 * Several processes on one KV file (instances, `deno task users`): SQLite answers a commit that finds another
 * process holding the file's write lock with "database is locked" instead of waiting. Nothing was written, so
 * the same commit may simply be tried again.
 */

/** Most tries of one write while the KV file stays busy. */
const MAX_TRIES = 50;

/** True for the error of a KV write that found the database file locked by another process. */
export function isKvBusy(err: unknown): boolean {
  return /database is locked|busy/i.test(String((err as Error)?.message));
}

/** Runs a KV write, again after a short random pause (a bounded number of times) while the file is busy. */
export async function whenKvFree<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= MAX_TRIES || !isKvBusy(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 10));
    }
  }
}
