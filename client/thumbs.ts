// This module is browser-compatible.
/**
 * Lazy thumbnail loading for the listing: an image starts loading when it comes within 1.3 screens
 * of the viewport, requests start at most every ~200 ms (a fast scroll past a photo folder does not queue every
 * thumbnail it flew over), a failed load is tried 3 times in all, and the last 200 loaded URLs are remembered so a
 * row scrolled back into view shows its image at once.
 */

/** How far ahead of the viewport thumbnails load, in viewport heights. */
export const PRELOAD_SCREENS = 1.3;
/** Attempts per thumbnail before it falls back to the file-type icon. */
export const ATTEMPTS = 3;
/** Requests start at most this often, ms. */
export const THROTTLE_MS = 200;
/** Loaded URLs remembered. */
export const CACHE_SIZE = 200;

/** What the loader needs from the outside world (the browser's Image and timers; tests pass fakes). */
export interface ThumbLoaderOptions {
  load: (url: string) => Promise<void>;
  setTimer?: (fn: () => void, ms: number) => unknown;
  now?: () => number;
  /** Pause between attempts, ms (times the attempt number). */
  retryDelayMs?: number;
}

type Listener = (state: "loaded" | "failed") => void;

/** Loads thumbnails with a throttle, retries and a small cache of loaded URLs. */
export class ThumbLoader {
  #opts: Required<ThumbLoaderOptions>;
  #cache = new Map<string, true>();
  #failed = new Set<string>();
  #queue: string[] = [];
  #waiting = new Map<string, Set<Listener>>();
  #lastStart = -Infinity;
  #timerSet = false;

  constructor(options: ThumbLoaderOptions) {
    this.#opts = {
      setTimer: (fn, ms) => setTimeout(fn, ms),
      now: () => Date.now(),
      retryDelayMs: 500,
      ...options,
    };
  }

  /** True when the URL loaded recently (render it at once). */
  isLoaded(url: string): boolean {
    if (!this.#cache.has(url)) return false;
    // Refresh its place: the cache drops the least recently used URL first.
    this.#cache.delete(url);
    this.#cache.set(url, true);
    return true;
  }

  /** True when every attempt failed. */
  hasFailed(url: string): boolean {
    return this.#failed.has(url);
  }

  /** Asks for a URL; `listener` hears once whether it loaded. Returns a function that withdraws the request. */
  request(url: string, listener: Listener): () => void {
    if (this.isLoaded(url)) {
      listener("loaded");
      return () => {};
    }
    if (this.#failed.has(url)) {
      listener("failed");
      return () => {};
    }
    let set = this.#waiting.get(url);
    if (!set) {
      set = new Set();
      this.#waiting.set(url, set);
      this.#queue.push(url);
    }
    set.add(listener);
    this.#pump();
    return () => {
      const s = this.#waiting.get(url);
      s?.delete(listener);
      // Nobody wants it any more (scrolled away before it started): drop it from the queue.
      if (s && s.size === 0) {
        this.#waiting.delete(url);
        const i = this.#queue.indexOf(url);
        if (i >= 0) this.#queue.splice(i, 1);
      }
    };
  }

  #pump(): void {
    if (this.#timerSet || this.#queue.length === 0) return;
    const wait = this.#lastStart + THROTTLE_MS - this.#opts.now();
    if (wait > 0) {
      this.#timerSet = true;
      this.#opts.setTimer(() => {
        this.#timerSet = false;
        this.#pump();
      }, wait);
      return;
    }
    this.#lastStart = this.#opts.now();
    // Everything asked for during the throttle window starts together: the window is what is on screen now.
    const batch = this.#queue.splice(0);
    for (const url of batch) void this.#attempt(url, 1);
  }

  async #attempt(url: string, n: number): Promise<void> {
    try {
      await this.#opts.load(url);
    } catch {
      if (n < ATTEMPTS && this.#waiting.has(url)) {
        this.#opts.setTimer(() => void this.#attempt(url, n + 1), this.#opts.retryDelayMs * n);
        return;
      }
      if (n >= ATTEMPTS) this.#failed.add(url);
      this.#settle(url, "failed");
      return;
    }
    this.#cache.set(url, true);
    while (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value!);
    this.#settle(url, "loaded");
  }

  #settle(url: string, state: "loaded" | "failed"): void {
    const listeners = this.#waiting.get(url);
    this.#waiting.delete(url);
    for (const l of listeners ?? []) l(state);
  }
}

function loadImage(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.decoding = "async";
    img.onload = () => resolve();
    img.onerror = () => reject(new Error(`thumbnail failed: ${url}`));
    img.src = url;
  });
}

let shared: ThumbLoader | null = null;

/** The page's loader (one cache for the whole listing). */
export function thumbLoader(): ThumbLoader {
  return shared ??= new ThumbLoader({ load: loadImage });
}
