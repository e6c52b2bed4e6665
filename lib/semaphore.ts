/** A tiny counting semaphore: at most `limit` holders at once, waiters served first come first served. */
export class Semaphore {
  readonly limit: number;
  #active = 0;
  #waiters: (() => void)[] = [];

  constructor(limit: number) {
    this.limit = Math.max(1, Math.floor(limit));
  }

  /** Number of current holders. */
  get active(): number {
    return this.#active;
  }

  /** Runs `job` once a slot is free and releases the slot when it settles. */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    } else {
      this.#active++;
    }
    try {
      return await job();
    } finally {
      // Hand the slot straight to the next waiter so a newcomer cannot overtake it.
      const next = this.#waiters.shift();
      if (next) next();
      else this.#active--;
    }
  }
}
