/**
 * Flushing staging files to disk while their chunks arrive. Completion must fdatasync the file before it is
 * moved into place; done only then, that one call waits for the writeback of the whole upload (~0.3–0.7 s per
 * GiB here) while the client waits for the last PATCH. So the chunk writer asks for a background fdatasync
 * every few MiB and at the end of each chunk; completion waits for the one in flight and then syncs what little
 * is left. At most one sync runs per file: a request while one runs marks the file for one more round.
 * Background failures are ignored: the final sync at completion reports real disk errors. The running syncs
 * are tracked per app (AppDeps.stagingSync).
 */
import { openFile, serverPath } from "../fs/floor.ts";

interface SyncState {
  /** Another round was asked for while one was running. */
  again: boolean;
  done: Promise<void>;
}

async function syncOnce(path: string): Promise<void> {
  const file = await openFile(serverPath(path), { read: true, write: true });
  try {
    await file.syncData();
  } finally {
    file.close();
  }
}

/** The background syncs of one app's staging files. */
export class StagingSync {
  readonly #running = new Map<string, SyncState>();

  async #loop(path: string, state: SyncState): Promise<void> {
    try {
      do {
        state.again = false;
        await syncOnce(path);
      } while (state.again);
    } catch {
      // Gone (terminated, cleaned up) or a disk error: the sync before completion reports the latter.
    } finally {
      this.#running.delete(path);
    }
  }

  /** Starts (or queues one more round of) a background fdatasync of `path`. */
  start(path: string): void {
    const current = this.#running.get(path);
    if (current) {
      current.again = true;
      return;
    }
    const state: SyncState = { again: false, done: Promise.resolve() };
    this.#running.set(path, state);
    state.done = this.#loop(path, state);
  }

  /** Waits until no background sync of `path` is running (never rejects). */
  async settle(path: string): Promise<void> {
    await this.#running.get(path)?.done;
  }

  /** How many files have a background sync running (tests). */
  get count(): number {
    return this.#running.size;
  }
}
