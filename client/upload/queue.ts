// This module is browser-compatible.
/**
 * The upload queue: jobs wait in order and run up to 5 at once. A folder job creates the
 * folder; a file job hands the file to the uploader (tus by default, see ./tus.ts). Progress is throttled to
 * 100 ms, the speed is sampled every second, and when the last job ends the state resets and a listing
 * reload is requested. The state is exposed as signals, so the upload panel only renders it.
 *
 * Everything outside (uploader, folder creation, timers, reload, error display) is injected, which keeps the
 * queue testable without a browser or a server.
 */
import { computed, signal } from "@preact/signals";
import type { ReadonlySignal } from "@preact/signals";
import { etaSeconds, formatEta, percentOf, SPEED_INTERVAL_MS, SpeedMeter, uploadTypeOf } from "./metrics.ts";
import type { UploadType } from "./metrics.ts";
import type { Uploader, UploadHandle, UploadJob } from "./uploader.ts";
import { browserClock, throttle } from "./clock.ts";
import type { QueueClock } from "./clock.ts";

export type { QueueClock } from "./clock.ts";

export type {
  DirJob,
  FileJob,
  UploadBlob,
  Uploader,
  UploadHandle,
  UploadJob,
  UploadRequest,
} from "./uploader.ts";

/** Uploads running at the same time. */
export const MAX_CONCURRENT_UPLOADS = 5;
/** Minimum time between two progress updates of one upload. */
export const PROGRESS_THROTTLE_MS = 100;

/** What a run of the queue (from busy to idle) did. */
export interface UploadSummary {
  /** Files (not folders) that finished. */
  uploaded: number;
  /** Folders created (a folder was uploaded with its tree). */
  folders: number;
  /** Jobs that failed. */
  failed: number;
  /** The run ended by an abort. */
  aborted: boolean;
}

/** The outside world of the queue. */
export interface UploadQueueDeps {
  uploader: Uploader;
  /** Creates a folder: `POST /api/resources<dir>/`. */
  createDir(path: string): Promise<void>;
  /** The queue emptied (or was aborted): reload the listing, report how many files arrived. */
  onFinished?(summary: UploadSummary): void;
  /** A job failed; the item is already gone from the state. */
  onError?(error: Error, item: UploadItem): void;
  clock?: QueueClock;
  maxConcurrent?: number;
}

/** One entry of the upload panel. */
export interface UploadItem {
  id: number;
  /** Last path segment. */
  name: string;
  /** Target vpath. */
  path: string;
  isDir: boolean;
  /** From the MIME prefix; unset for folders. */
  type?: UploadType;
  /** Bytes to send (0 for folders). */
  size: number;
  /** Bytes sent so far. */
  sent: number;
  /** Rounded percentage; folders always show 100. */
  progress: number;
  /** True once the job ended successfully. */
  done: boolean;
}

/** The queue: signals for the panel, and the actions. */
export interface UploadQueue {
  /** Items by id (queued, running and finished ones of the current batch). */
  readonly uploads: ReadonlySignal<Readonly<Record<number, UploadItem>>>;
  /** The items by ascending progress (then by id): what the panel lists. */
  readonly list: ReadonlySignal<UploadItem[]>;
  /** Number of items; the panel shows only while it is above 0. */
  readonly count: ReadonlySignal<number>;
  /** Overall rounded percentage of bytes sent over bytes to send. */
  readonly percent: ReadonlySignal<number>;
  /** Smoothed speed in MiB/s. */
  readonly speedMbyte: ReadonlySignal<number>;
  /** Seconds left, or null when unknown. */
  readonly eta: ReadonlySignal<number | null>;
  /** The ETA as hh:mm:ss, or --:--:--. */
  readonly etaText: ReadonlySignal<string>;
  /** Jobs are waiting or running (warn before leaving the page). */
  readonly isUploading: ReadonlySignal<boolean>;
  /** Adds jobs; returns their ids. */
  enqueue(jobs: UploadJob[]): number[];
  /** Stops one upload (terminating it on the server) and drops it from the state. */
  abort(id: number): Promise<void>;
  /** Stops everything, clears the state and requests a reload. */
  abortAll(): Promise<void>;
  /** Resolves when no job is waiting or running. */
  idle(): Promise<void>;
}

interface Running {
  handle: UploadHandle | null;
  aborted: boolean;
  stopThrottle(): void;
}

function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** Creates an upload queue around its dependencies. */
export function createUploadQueue(deps: UploadQueueDeps): UploadQueue {
  const clock = deps.clock ?? browserClock;
  const max = deps.maxConcurrent ?? MAX_CONCURRENT_UPLOADS;
  const uploads = signal<Readonly<Record<number, UploadItem>>>({});
  const speedMbyte = signal(0);
  const busy = signal(false);
  const meter = new SpeedMeter();
  const pending: { id: number; job: UploadJob }[] = [];
  const running = new Map<number, Running>();
  let nextId = 1;
  let ticker: unknown = null;
  let idleWaiters: (() => void)[] = [];
  let summary: UploadSummary = { uploaded: 0, folders: 0, failed: 0, aborted: false };
  const takeSummary = (aborted: boolean): UploadSummary => {
    const out = { ...summary, aborted };
    summary = { uploaded: 0, folders: 0, failed: 0, aborted: false };
    return out;
  };

  const totals = computed(() => {
    let size = 0, sent = 0;
    for (const item of Object.values(uploads.value)) {
      size += item.size;
      sent += item.sent;
    }
    return { size, sent };
  });
  const list = computed(() =>
    Object.values(uploads.value).sort((a, b) => a.progress - b.progress || a.id - b.id)
  );
  const eta = computed(() => etaSeconds(totals.value.size - totals.value.sent, speedMbyte.value));

  function patchItem(id: number, change: Partial<UploadItem>): void {
    const item = uploads.value[id];
    if (!item) return;
    const next = { ...item, ...change };
    next.progress = next.isDir ? 100 : percentOf(next.sent, next.size, { done: next.done });
    uploads.value = { ...uploads.value, [id]: next };
  }

  function dropItem(id: number): void {
    if (!(id in uploads.value)) return;
    const { [id]: _gone, ...rest } = uploads.value;
    uploads.value = rest;
  }

  function resetState(): void {
    if (ticker !== null) clock.clearInterval(ticker);
    ticker = null;
    meter.reset();
    speedMbyte.value = 0;
    uploads.value = {};
    busy.value = false;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  }

  function settle(): void {
    pump();
    if (pending.length === 0 && running.size === 0 && busy.value) {
      resetState();
      deps.onFinished?.(takeSummary(false));
    }
  }

  function finish(id: number, run: Running): void {
    if (run.aborted) return;
    run.stopThrottle();
    running.delete(id);
    const item = uploads.value[id];
    if (item) patchItem(id, { sent: item.size, done: true });
    if (item && !item.isDir) summary.uploaded++;
    if (item?.isDir) summary.folders++;
    settle();
  }

  function fail(id: number, run: Running, err: unknown): void {
    if (run.aborted) return;
    run.stopThrottle();
    running.delete(id);
    const item = uploads.value[id];
    dropItem(id);
    summary.failed++;
    if (item) deps.onError?.(err instanceof Error ? err : new Error(String(err)), item);
    settle();
  }

  function start(id: number, job: UploadJob): void {
    if (job.kind === "dir") {
      const run: Running = { handle: null, aborted: false, stopThrottle: () => {} };
      running.set(id, run);
      deps.createDir(job.path).then(() => finish(id, run), (err) => fail(id, run, err));
      return;
    }
    const progress = throttle(clock, PROGRESS_THROTTLE_MS, (sent) => {
      if (!run.aborted) patchItem(id, { sent: Math.min(sent, job.file.size) });
    });
    const run: Running = { handle: null, aborted: false, stopThrottle: () => progress.stop() };
    running.set(id, run);
    try {
      run.handle = deps.uploader({
        path: job.path,
        file: job.file,
        overwrite: job.overwrite,
        onProgress: (sent) => progress.push(sent),
      });
    } catch (err) {
      fail(id, run, err);
      return;
    }
    run.handle.done.then(() => finish(id, run), (err) => fail(id, run, err));
  }

  function pump(): void {
    while (running.size < max && pending.length > 0) {
      const next = pending.shift()!;
      start(next.id, next.job);
    }
  }

  function tick(): void {
    speedMbyte.value = meter.sample(totals.value.sent, clock.now());
  }

  return {
    uploads,
    list,
    count: computed(() => Object.keys(uploads.value).length),
    percent: computed(() => percentOf(totals.value.sent, totals.value.size, { done: true })),
    speedMbyte,
    eta,
    etaText: computed(() => formatEta(eta.value)),
    isUploading: busy,
    enqueue(jobs) {
      const ids: number[] = [];
      const added: Record<number, UploadItem> = {};
      for (const job of jobs) {
        const id = nextId++;
        ids.push(id);
        const isDir = job.kind === "dir";
        const name = isDir ? baseName(job.path) : job.file.name || baseName(job.path);
        added[id] = {
          id,
          name,
          path: job.path,
          isDir,
          type: isDir ? undefined : uploadTypeOf(job.file.type),
          size: isDir ? 0 : job.file.size,
          sent: 0,
          progress: isDir ? 100 : 0,
          done: false,
        };
        pending.push({ id, job });
      }
      if (ids.length === 0) return ids;
      uploads.value = { ...uploads.value, ...added };
      if (!busy.value) {
        busy.value = true;
        meter.reset();
        meter.sample(totals.value.sent, clock.now());
        ticker = clock.setInterval(tick, SPEED_INTERVAL_MS);
      }
      pump();
      return ids;
    },
    async abort(id) {
      const waiting = pending.findIndex((p) => p.id === id);
      if (waiting >= 0) {
        pending.splice(waiting, 1);
        dropItem(id);
        settle();
        return;
      }
      const run = running.get(id);
      if (!run) return;
      run.aborted = true;
      run.stopThrottle();
      running.delete(id);
      dropItem(id);
      try {
        await run.handle?.abort();
      } finally {
        settle();
      }
    },
    async abortAll() {
      pending.length = 0;
      const runs = [...running.values()];
      running.clear();
      for (const run of runs) {
        run.aborted = true;
        run.stopThrottle();
      }
      const wasBusy = busy.value;
      resetState();
      await Promise.allSettled(runs.map((run) => run.handle?.abort()));
      if (wasBusy) deps.onFinished?.(takeSummary(true));
    },
    idle() {
      if (!busy.value) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
  };
}

/** Warns before leaving the page while `queue` uploads; returns the unbinding function. */
export function bindLeaveWarning(
  queue: Pick<UploadQueue, "isUploading">,
  target: Pick<EventTarget, "addEventListener" | "removeEventListener">,
): () => void {
  const listener = (event: Event) => {
    if (!queue.isUploading.value) return;
    event.preventDefault();
    // Older browsers show the prompt only when returnValue is set to a string.
    (event as BeforeUnloadEvent).returnValue = "uploading";
  };
  target.addEventListener("beforeunload", listener);
  return () => target.removeEventListener("beforeunload", listener);
}
