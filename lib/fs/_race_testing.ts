/**
 * Test helper for time-of-check/time-of-use races on the disk layer: a swapper that keeps exchanging two (or more
 * pairs of) directory entries on a thread of its own while the test drives the code under test.
 *
 * With `exchange` (the default) each swap is one `renameat2(RENAME_EXCHANGE)`: both names exist at every instant
 * and trade places atomically, so a real folder `d` and a symlink `dl -> ../outside` alternate under the name `d`
 * with no moment where `d` is missing (the strongest race a local attacker can run). Without it, each round is
 * four plain renames (`a → a.race-tmp`, `b → a`, `a → b`, `a.race-tmp → a`), as any process without renameat2 can
 * do; `a` is then briefly missing.
 *
 * The loop runs in a Worker (this module loads itself as the worker), so it keeps swapping while the main thread's
 * event loop waits on I/O. `stop()` ends it and puts every pair back as it was (an even number of exchanges, or a
 * completed round of renames). Entries that vanish meanwhile (the code under test deleted or moved one) are
 * counted as errors and the loop goes on with the other pairs.
 *
 * Linux only (renameat2 from glibc, or the raw syscall: 316 on x86_64, 276 on aarch64).
 *
 * Beware of watched folders: renames inside a folder the process watches with `Deno.watchFs` (the listing and
 * folder-size caches, the search index) flood the watcher thread, and every later `Deno.watchFs()` call (a
 * synchronous op) blocks the event loop until the swapping stops. Swap entries in folders nothing watches, or
 * rely on `maxMs` to end the stall.
 *
 * ```ts
 * const swapper = await startSwapper(`${scope}/d`, `${scope}/dl`);
 * try { await hammer(); } finally { const { swaps } = await swapper.stop(); }
 * ```
 */

/** Options of {@link startSwapper}. */
export interface SwapperOptions {
  /** Swap atomically with renameat2(RENAME_EXCHANGE) (default true); false: four plain renames per round. */
  exchange?: boolean;
  /**
   * Pause after each round over the pairs, in milliseconds (fractions allowed; default 0: a tight loop, one core
   * busy). Atomics.wait sleeps some tens of microseconds at least, still far shorter than a request takes from
   * its check to its use.
   */
  pauseMs?: number;
  /**
   * The worker stops by itself after this long (default 60 s), even if `stop()` is never called: a safety net for
   * a test whose main thread got blocked (a storm of renames can keep a file watcher's thread busy while the event
   * loop waits for it) or that died without cleaning up. The pairs are restored then too.
   */
  maxMs?: number;
}

/** What a swapper did. */
export interface SwapperResult {
  /** Swaps (exchange mode) or rounds of four renames that succeeded, over all pairs. */
  swaps: number;
  /** Swaps that failed (an entry had vanished, …). */
  errors: number;
  /** The first error message seen, if any (errno name or Deno error). */
  firstError: string | null;
  /** The worker stopped by itself at `maxMs`, before `stop()` was called. */
  timedOut: boolean;
}

/** A running swapper. */
export interface Swapper {
  /** Swaps done so far (read live from the worker). */
  readonly swaps: number;
  /** Stops the loop, restores every pair to its starting arrangement and reports. Idempotent. */
  stop(): Promise<SwapperResult>;
}

const WORKER_NAME = "fs-race-swapper";
/** Slots of the shared Int32Array. */
const STOP = 0, SWAPS = 1, ERRORS = 2;

interface Start {
  pairs: [string, string][];
  exchange: boolean;
  pauseMs: number;
  maxMs: number;
  shared: SharedArrayBuffer;
}

/** Starts swapping `a` and `b`; resolves once the loop runs (see the module comment). */
export function startSwapper(a: string, b: string, options: SwapperOptions = {}): Promise<Swapper> {
  return startSwappers([[a, b]], options);
}

/** Starts one swapper thread that exchanges every pair in turn; resolves once the loop runs. */
export async function startSwappers(
  pairs: readonly (readonly [string, string])[],
  options: SwapperOptions = {},
): Promise<Swapper> {
  if (Deno.build.os !== "linux") throw new Error("startSwapper needs Linux (renameat2)");
  const shared = new SharedArrayBuffer(4 * 4);
  const view = new Int32Array(shared);
  // The worker loads (and under `deno test`, type-checks) this module first: that can take a second or more,
  // so the caller waits for the loop to run before starting the operations it races with.
  const worker = new Worker(import.meta.url, { type: "module", name: WORKER_NAME });
  let running!: () => void;
  const started = new Promise<void>((resolve) => running = resolve);
  const done = new Promise<SwapperResult>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<SwapperResult | "running">) => {
      if (e.data === "running") running();
      else resolve(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      reject(new Error(`swapper worker failed: ${e.message}`));
    };
  });
  const start: Start = {
    pairs: pairs.map(([x, y]) => [x, y]),
    exchange: options.exchange ?? true,
    pauseMs: options.pauseMs ?? 0,
    maxMs: options.maxMs ?? 60_000,
    shared,
  };
  worker.postMessage(start);
  let stopped: Promise<SwapperResult> | null = null;
  const swapper: Swapper = {
    get swaps() {
      return Atomics.load(view, SWAPS);
    },
    stop() {
      if (stopped) return stopped;
      Atomics.store(view, STOP, 1);
      Atomics.notify(view, STOP);
      stopped = done.finally(() => worker.terminate());
      return stopped;
    },
  };
  try {
    await Promise.race([started, done]);
  } catch (err) {
    worker.terminate();
    throw err;
  }
  return swapper;
}

// ---- the worker side ----

const AT_FDCWD = -100;
const RENAME_EXCHANGE = 2;
const ERRNO_NAMES: Record<number, string> = {
  1: "EPERM",
  2: "ENOENT",
  13: "EACCES",
  16: "EBUSY",
  18: "EXDEV",
  20: "ENOTDIR",
  21: "EISDIR",
  22: "EINVAL",
  38: "ENOSYS",
  39: "ENOTEMPTY",
};

type Exchange = (a: Uint8Array<ArrayBuffer>, b: Uint8Array<ArrayBuffer>) => string | null;

/** renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) through libc; returns null or the errno's name. */
function libcExchange(): Exchange {
  const common = {
    __errno_location: { parameters: [], result: "pointer" },
  } as const;
  let call: (a: Uint8Array<ArrayBuffer>, b: Uint8Array<ArrayBuffer>) => number;
  let errnoPtr: () => Deno.PointerValue;
  try {
    const lib = Deno.dlopen("libc.so.6", {
      ...common,
      renameat2: { parameters: ["i32", "buffer", "i32", "buffer", "u32"], result: "i32" },
    });
    call = (a, b) => lib.symbols.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
    errnoPtr = () => lib.symbols.__errno_location();
  } catch {
    // An older glibc without the wrapper: the raw system call.
    const nr = Deno.build.arch === "x86_64" ? 316n : 276n;
    const lib = Deno.dlopen("libc.so.6", {
      ...common,
      syscall: { parameters: ["i64", "i64", "buffer", "i64", "buffer", "i64"], result: "i64" },
    });
    call = (a, b) =>
      Number(lib.symbols.syscall(nr, BigInt(AT_FDCWD), a, BigInt(AT_FDCWD), b, BigInt(RENAME_EXCHANGE)));
    errnoPtr = () => lib.symbols.__errno_location();
  }
  return (a, b) => {
    if (call(a, b) === 0) return null;
    const p = errnoPtr();
    const errno = p === null ? -1 : new Deno.UnsafePointerView(p).getInt32();
    return ERRNO_NAMES[errno] ?? `errno ${errno}`;
  };
}

function cString(s: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(s + "\0");
  return new Uint8Array(bytes);
}

function runWorker(start: Start): SwapperResult {
  const view = new Int32Array(start.shared);
  const exchange = start.exchange ? libcExchange() : null;
  const encoded = start.pairs.map(([a, b]) => [cString(a), cString(b)] as const);
  // Exchanges done per pair: an odd count is evened out at the end.
  const parity = start.pairs.map(() => 0);
  let firstError: string | null = null;
  const fail = (what: string) => {
    Atomics.add(view, ERRORS, 1);
    firstError ??= what;
  };
  const once = (i: number): boolean => {
    if (exchange) {
      const err = exchange(encoded[i][0], encoded[i][1]);
      if (err !== null) {
        fail(`${err}: ${start.pairs[i].join(" <-> ")}`);
        return false;
      }
      parity[i] ^= 1;
      return true;
    }
    const [a, b] = start.pairs[i];
    const tmp = `${a}.race-tmp`;
    const steps: [string, string][] = [[a, tmp], [b, a], [a, b], [tmp, a]];
    for (let s = 0; s < steps.length; s++) {
      try {
        Deno.renameSync(steps[s][0], steps[s][1]);
      } catch (err) {
        fail(`${(err as Error).message}`);
        // Undo what this round did, so the pair stays as it was.
        for (let u = s - 1; u >= 0; u--) {
          try {
            Deno.renameSync(steps[u][1], steps[u][0]);
          } catch { /* the entry is gone; nothing to restore */ }
        }
        return false;
      }
    }
    return true;
  };
  const until = performance.now() + start.maxMs;
  (globalThis as unknown as { postMessage(m: unknown): void }).postMessage("running");
  while (Atomics.load(view, STOP) === 0 && performance.now() < until) {
    for (let i = 0; i < encoded.length; i++) {
      if (once(i)) Atomics.add(view, SWAPS, 1);
    }
    if (encoded.length === 0) Atomics.wait(view, STOP, 0, Math.max(0, until - performance.now()));
    else if (start.pauseMs > 0) Atomics.wait(view, STOP, 0, start.pauseMs);
  }
  const timedOut = Atomics.load(view, STOP) === 0;
  for (let i = 0; i < encoded.length; i++) {
    if (parity[i] === 1) once(i);
  }
  return { swaps: Atomics.load(view, SWAPS), errors: Atomics.load(view, ERRORS), firstError, timedOut };
}

// deno-lint-ignore no-explicit-any
const scope = globalThis as any;
if (typeof scope.WorkerGlobalScope !== "undefined" && scope.name === WORKER_NAME) {
  scope.onmessage = (e: MessageEvent<Start>) => {
    scope.postMessage(runWorker(e.data));
  };
}
