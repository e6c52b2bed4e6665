/**
 * Requests in flight, so background work (the search index's walks and re-reads, the memory release after
 * start) can let them go first. A request counts from the moment its handler starts until it returns its
 * response, but only for `holdMs`: a long upload or a slow stream does not hold background work back for
 * longer than that.
 */

/** Options of {@link RequestActivity}. */
export interface RequestActivityOptions {
  /** How long one request may keep background work waiting, in ms. Default 2,000. */
  holdMs?: number;
  /** Clock in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** Counts requests in flight and tells background work when to go on; one per app (AppDeps.activity). */
export class RequestActivity {
  readonly #holdMs: number;
  readonly #now: () => number;
  /** Start times of the requests in flight, by request. */
  readonly #inFlight = new Map<symbol, number>();
  #waiters: (() => void)[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: RequestActivityOptions = {}) {
    this.#holdMs = options.holdMs ?? 2_000;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Marks a request as started; call the returned function once its response is ready (or it failed). */
  begin(): () => void {
    const id = Symbol();
    this.#inFlight.set(id, this.#now());
    return () => {
      if (!this.#inFlight.delete(id)) return;
      this.#wake();
    };
  }

  /** Requests in flight now (whether or not they still hold background work). */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * Null when background work may go on now; otherwise a promise that resolves (in a later macrotask) once no
   * request started less than `holdMs` ago is in flight. Callers await it only when it is not null, so an
   * idle server pays nothing.
   */
  whenIdle(): Promise<void> | null {
    if (this.#holdsUntil() <= this.#now()) return null;
    return new Promise<void>((resolve) => {
      const check = () => {
        if (this.#holdsUntil() <= this.#now()) {
          // A macrotask: the request's own continuations (writing the response) run first.
          setTimeout(resolve, 0);
        } else {
          this.#waiters.push(check);
          this.#arm();
        }
      };
      check();
    });
  }

  /** When the youngest request in flight stops holding background work (-Infinity: none in flight). */
  #holdsUntil(): number {
    let until = -Infinity;
    for (const started of this.#inFlight.values()) until = Math.max(until, started + this.#holdMs);
    return until;
  }

  /** A timer for the moment the current holds expire, in case no request ends before. */
  #arm(): void {
    clearTimeout(this.#timer);
    const wait = this.#holdsUntil() - this.#now();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#wake();
    }, Math.max(0, Math.ceil(wait)));
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
