/**
 * Gives memory back to the system once the listing cache has dropped its snapshots (lib/fs/listing_cache.ts).
 *
 * Measured with a 100k-entry folder: after the snapshot and its renderings are unreachable, V8 keeps its grown
 * heap until its next collection (none comes while the server is idle), and glibc keeps tens of MiB of freed
 * ArrayBuffer and read-dir memory in its arenas. So, when idle: a full, memory-reducing collection if the runtime exposes one
 * (`--v8-flags=--expose-gc`, set by `deno task start`), then glibc's `malloc_trim(0)` through FFI where that
 * is allowed and libc is glibc. Both are skipped silently when unavailable.
 */
import { log } from "../log.ts";

type Trim = () => void;

let trim: Trim | null | undefined;

function loadTrim(): Trim | null {
  if (Deno.build.os !== "linux") return null;
  try {
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return null;
    const libc = Deno.dlopen("libc.so.6", { malloc_trim: { parameters: ["usize"], result: "i32" } });
    return () => void libc.symbols.malloc_trim(0n);
  } catch (err) {
    // Not glibc (musl, static builds): nothing to trim.
    log.debug("malloc_trim unavailable", err);
    return null;
  }
}

/** Options of V8's `gc()` that make it collect all it can and shrink the heap, the young generation too. */
export const RELEASE_GC = { type: "major", flavor: "last-resort" } as const;

/** Runs a full garbage collection (when exposed) and returns free malloc memory to the system (glibc). */
export function releaseMemory(): void {
  const gc = (globalThis as { gc?: (options: typeof RELEASE_GC) => void }).gc;
  // A plain gc() leaves the young generation at the size it grew to (up to 2 x 16 MiB with V8's default
  // limit): after a 100k-entry listing the server settled some 40 MiB higher than with "last-resort".
  if (typeof gc === "function") gc(RELEASE_GC);
  if (trim === undefined) trim = loadTrim();
  trim?.();
}

/** Calls `onIdle` once `ms` have passed since the last {@link IdleTimer.touch}, after each {@link IdleTimer.arm}. */
export class IdleTimer {
  readonly #ms: number;
  readonly #onIdle: () => void;
  #last = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(ms: number, onIdle: () => void) {
    this.#ms = ms;
    this.#onIdle = onIdle;
  }

  /** Records a use: the quiet period starts again. */
  touch(): void {
    this.#last = Date.now();
  }

  /** Makes sure `onIdle` runs after the next quiet period (once). */
  arm(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#closed) return;
      if (Date.now() - this.#last < this.#ms) this.arm();
      else this.#onIdle();
    }, Math.max(this.#last + this.#ms - Date.now(), 1));
    // Waiting for a quiet period is never a reason to keep the process alive.
    Deno.unrefTimer(this.#timer);
  }

  /** Cancels the timer for good. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
