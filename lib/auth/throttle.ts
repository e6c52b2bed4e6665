/** Login failure throttling per client: after `limit` failures in a minute, answers 429 with Retry-After. */
import { TooManyRequestsError } from "../errors.ts";

const WINDOW_MS = 60_000;

/** In-memory sliding-window counter of login failures per client key. */
export class LoginThrottle {
  #failures = new Map<string, number[]>();
  #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  #recent(key: string, now: number): number[] {
    const list = (this.#failures.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
    if (list.length) this.#failures.set(key, list);
    else this.#failures.delete(key);
    return list;
  }

  /** Throws TooManyRequestsError when the client has used up its failures. */
  check(key: string, now: number): void {
    const list = this.#recent(key, now);
    if (list.length >= this.#limit) throw new TooManyRequestsError((list[0] + WINDOW_MS - now) / 1000);
  }

  /** Records one failure. */
  fail(key: string, now: number): void {
    const list = this.#recent(key, now);
    list.push(now);
    this.#failures.set(key, list);
    if (this.#failures.size > 10_000) this.#failures.delete(this.#failures.keys().next().value!);
  }

  /** Clears a client's failures after a success. */
  succeed(key: string): void {
    this.#failures.delete(key);
  }
}
