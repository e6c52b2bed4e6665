/**
 * Requests in flight, so background work (the search index's walks and re-reads, the memory release after
 * start) can let them go first. Background work waits while a request is in flight and for `quietMs` after
 * the last one ended (a page and the requests it makes next come in bursts: a login, then a listing). Two
 * bounds keep it from starving: a request holds it for at most `holdMs` (a long upload or a slow stream does
 * not), and work that has waited `holdMs` goes on regardless for a short while (under a steady stream of
 * requests it advances in slices).
 */

/** Options of {@link RequestActivity}. */
export interface RequestActivityOptions {
  /** How long one request (or a stream of them) may keep background work waiting, in ms. Default 5,000. */
  holdMs?: number;
  /** Quiet time after the last request before background work goes on, in ms. Default 100. */
  quietMs?: number;
  /** Clock in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** Counts requests in flight and tells background work when to go on; one per app (AppDeps.activity). */
export class RequestActivity {
  readonly #holdMs: number;
  readonly #quietMs: number;
  readonly #now: () => number;
  /** Start times of the requests in flight, by request. */
  readonly #inFlight = new Map<symbol, number>();
  #lastEnd = -Infinity;
  /** Until then background work goes on without waiting (it waited `holdMs` already). */
  #grantUntil = -Infinity;
  #waiters: (() => void)[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When #timer fires. */
  #timerAt = Infinity;

  constructor(options: RequestActivityOptions = {}) {
    this.#holdMs = options.holdMs ?? 5_000;
    this.#quietMs = options.quietMs ?? 100;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Marks a request as started; call the returned function once its response is ready (or it failed). */
  begin(): () => void {
    const id = Symbol();
    this.#inFlight.set(id, this.#now());
    return () => {
      if (!this.#inFlight.delete(id)) return;
      this.#lastEnd = this.#now();
      this.#wake();
    };
  }

  /**
   * Holds background work for the next `ms` as if a request had just ended (the start: the first requests
   * after a restart go before the index's snapshot load, reconciliation and watch registration).
   */
  defer(ms: number): void {
    this.#lastEnd = Math.max(this.#lastEnd, this.#now() + ms - this.#quietMs);
  }

  /** Requests in flight now (whether or not they still hold background work). */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * Null when background work may go on now; otherwise a promise that resolves in a later macrotask once no
   * request holds it (see above). Callers await it only when it is not null, so an idle server pays nothing.
   */
  whenIdle(): Promise<void> | null {
    const now = this.#now();
    if (now < this.#grantUntil || this.#busyUntil() <= now) return null;
    const since = now;
    return new Promise<void>((resolve) => {
      const check = () => {
        const t = this.#now();
        const starved = t >= since + this.#holdMs;
        if (starved || this.#busyUntil() <= t) {
          if (starved) this.#grantUntil = t + this.#holdMs / 10;
          // A macrotask: the request's own continuations (writing the response) run first.
          setTimeout(resolve, 0);
        } else {
          this.#waiters.push(check);
          this.#arm(Math.min(this.#busyUntil(), since + this.#holdMs));
        }
      };
      check();
    });
  }

  /** When background work may go on, as far as the requests seen so far tell (≤ now: at once). */
  #busyUntil(): number {
    let until = this.#lastEnd + this.#quietMs;
    for (const started of this.#inFlight.values()) until = Math.max(until, started + this.#holdMs);
    return until;
  }

  /** A timer for `at`, in case no request ends before (the earliest of the waiters' moments). */
  #arm(at: number): void {
    const wait = Math.max(0, Math.ceil(at - this.#now()));
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#wake();
    }, wait);
  }

  #wake(): void {
    const waiters = this.#waiters;
    if (waiters.length === 0) return;
    this.#waiters = [];
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const check of waiters) check();
  }
}
