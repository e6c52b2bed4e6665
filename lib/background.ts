/**
 * The work only a real server does besides answering requests: the search index's first walk and watcher, the
 * publish queue listener and the periodic sweeps (abandoned uploads, old trash, old audit entries). `main.ts`
 * starts it after `bootDeps()`; tests build the same app without it (they start single pieces when they need
 * them), so no timer outlives a test. `closeDeps()` releases what the app holds either way.
 */
import { log } from "./log.ts";
import type { AppDeps } from "./state.ts";
import { startPublishing } from "./publish/mod.ts";
import { cleanupUploads, releaseParkedLeases } from "./upload/mod.ts";
import { purgeTrash } from "./trash/mod.ts";
import { flushAuditCounts, purgeAudit } from "./audit/mod.ts";
import { releaseMemory } from "./fs/listing_memory.ts";

/** A periodic job: what it does, how often, and what its failure is logged as. */
interface Job {
  run: (deps: AppDeps) => Promise<unknown>;
  everyMs: number;
  failure: string;
}

const JOBS: Job[] = [
  // Abandoned partial uploads are removed after --upload-expiry.
  { run: (deps) => cleanupUploads(deps), everyMs: 15 * 60_000, failure: "upload cleanup failed" },
  // Trashed items older than --trash-days are removed for good.
  { run: (deps) => purgeTrash(deps), everyMs: 60 * 60_000, failure: "trash purge failed" },
  // Audit entries older than --audit-days are removed.
  { run: (deps) => purgeAudit(deps), everyMs: 60 * 60_000, failure: "audit purge failed" },
  // Counts of refused anonymous requests left out of the audit log are written once their minute is over.
  { run: (deps) => flushAuditCounts(deps), everyMs: 60_000, failure: "audit counts failed" },
];

/** What {@link startBackground} started; `stop()` clears the timers and waits for runs in progress. */
export interface Background {
  stop(): Promise<void>;
}

/** Options of {@link startBackground}. */
export interface BackgroundOptions {
  /**
   * Runs once the index's first walk (or snapshot load) and the first run of every job have ended, and no
   * request is in flight (lib/request_activity.ts). Default:
   * {@link releaseMemory}, a full collection and glibc's trim: the start's garbage (module loading, the walk's
   * folder reads, tens of MiB on a large tree) is given back instead of being kept by an idle server.
   */
  afterStart?: () => void;
  /** How long the index's start work waits after the start (and after any request meanwhile). Default 1,000. */
  deferMs?: number;
}

/** Starts the search index, the publish queue listener and the periodic jobs (each runs once at once). */
export function startBackground(deps: AppDeps, options: BackgroundOptions = {}): Background {
  const running = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    running.add(p);
    p.finally(() => running.delete(p));
  };
  const first: Promise<unknown>[] = [];
  let stopped = false;
  // Clients reconnect right after a restart: their first requests go before the index's start work.
  deps.activity.defer(options.deferMs ?? 1_000);
  const index = deps.searchIndex.start().catch((err) =>
    log.error("search index unavailable; searches walk the disk", err)
  );
  track(index);
  first.push(index);
  // Due publish schedules arrive through the KV queue; the listener ends when KV is closed (closeDeps).
  startPublishing(deps).catch((err) => log.error("publish queue stopped", err));
  const timers = JOBS.map((job) => {
    const run = () => {
      const p = job.run(deps).catch((err) => log.error(job.failure, err));
      track(p);
      return p;
    };
    first.push(run());
    return setInterval(run, job.everyMs);
  });
  Promise.all(first).then(async () => {
    // A full collection stops the thread for tens of milliseconds: after the requests in flight.
    await deps.activity.whenIdle();
    if (!stopped) (options.afterStart ?? releaseMemory)();
  });
  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.all([...running]);
    },
  };
}

/**
 * Releases what the app holds: watchers of the caches and the index, the state cache's watch, parked upload
 * leases (so another instance, or the next start, can take those uploads at once), and KV last.
 */
export async function closeDeps(deps: AppDeps): Promise<void> {
  // What the audit gate counted so far, before the database closes.
  await flushAuditCounts(deps, { final: true });
  await deps.listings.close();
  await deps.searchIndex.close();
  await deps.folderSizes.close();
  await deps.cache.close();
  deps.quotaLedger.close();
  await releaseParkedLeases(deps.leases).catch((err) => log.debug("cannot release upload leases", err));
  deps.kv.close();
}
