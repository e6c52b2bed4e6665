// This module is browser-compatible.
/** Time for the upload queue: an injectable clock and the progress throttle built on it. */

/** Timers and clock (browser globals by default; fakes in tests). */
export interface QueueClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
}

/** The browser's timers. */
export const browserClock: QueueClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as number),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (id) => clearInterval(id as number),
};

/** Calls `fn` at most once per `ms` with the latest value, the last value always delivered. */
export function throttle(clock: QueueClock, ms: number, fn: (value: number) => void) {
  let last = -Infinity;
  let timer: unknown = null;
  let latest = 0;
  const fire = () => {
    timer = null;
    last = clock.now();
    fn(latest);
  };
  return {
    push(value: number) {
      latest = value;
      if (timer !== null) return;
      const wait = last + ms - clock.now();
      if (wait <= 0) fire();
      else timer = clock.setTimeout(fire, wait);
    },
    stop() {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
  };
}
