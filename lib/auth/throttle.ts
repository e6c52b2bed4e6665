/**
 * Throttling of password guesses (logins, share passwords): `limit` attempts per (client, subject) and
 * `clientLimit` per client in a window that starts with the first attempt; past that, 429 with Retry-After.
 * Second-factor codes also have a budget per account, whatever the client (`reserveSubject`).
 *
 * An attempt is counted *before* the password is checked: `reserve()` takes a slot synchronously in this process
 * (so N simultaneous guesses on one instance cannot all pass), then in KV with a compare-and-set on expiring
 * counters (so every instance on the same database shares them). A success gives its slot back; a failure, an
 * error or a crash keeps it until the window ends.
 *
 * The in-process view refuses only on what KV said. While slots are in flight it cannot tell whether a count read
 * from KV already holds them (a commit may land before its answer comes back, and other readers see it first), so
 * an attempt that would only pass if some in-flight slot fails waits for one to settle and looks again instead of
 * being refused on a guess.
 */
import { TooManyRequestsError } from "../errors.ts";
import { clientKey } from "../client_address.ts";
import { isKvBusy } from "../storage/busy.ts";
import { keys } from "../storage/keys.ts";

/** Length of a throttling window. */
export const THROTTLE_WINDOW_MS = 60_000;

/** Options of a Throttle. */
export interface ThrottleOptions {
  /** Counters of different scopes ("login", "share") are separate. */
  scope: string;
  /** Attempts per (client, subject) per window. */
  limit: number;
  /** Attempts per client per window over every subject. */
  clientLimit: number;
  windowMs?: number;
}

/** A taken slot. */
export interface Reservation {
  /** Gives the slot back (after a success). */
  release(): Promise<void>;
}

/** A counter as stored in KV: attempts in the window, and when the window ends (ms). */
interface Counter {
  n: number;
  until: number;
}

/** This process's view of a counter: the last value seen in KV plus the slots not yet settled there. */
interface LocalCounter {
  known: number;
  pending: number;
  until: number;
  /** Attempts waiting for a pending slot to settle. */
  waiters: (() => void)[];
}

const MAX_LOCAL = 10_000;
const MAX_CAS_TRIES = 100;
const SUBJECT_MAX = 256;

/** Attempt counters of one scope on one database. */
export class Throttle {
  #kv: Deno.Kv;
  #options: Required<ThrottleOptions>;
  #local = new Map<string, LocalCounter>();

  constructor(kv: Deno.Kv, options: ThrottleOptions) {
    this.#kv = kv;
    this.#options = { windowMs: THROTTLE_WINDOW_MS, ...options };
  }

  /**
   * Takes a slot for `client` guessing at `subject`, or throws TooManyRequestsError. Callers must call this before
   * awaiting anything of the attempt itself: the slot is counted in this process before the call first yields,
   * unless it waits for slots in flight to settle, and then when it takes one.
   */
  reserve(client: string, subject: string, now: number): Promise<Reservation> {
    const ck = clientKey(client);
    const { scope, limit, clientLimit } = this.#options;
    return this.#reserve([
      { key: keys.throttleClient(scope, ck), limit: clientLimit },
      { key: keys.throttlePair(scope, ck, subjectKey(subject)), limit },
    ], now);
  }

  /**
   * Takes a slot of `subject` whoever the client is (`limit` per window), or throws TooManyRequestsError: a budget
   * per account that no choice of client address escapes. Same contract as {@link reserve}.
   */
  reserveSubject(subject: string, now: number): Promise<Reservation> {
    const { scope, limit } = this.#options;
    return this.#reserve([{ key: keys.throttleSubject(scope, subjectKey(subject)), limit }], now);
  }

  async #reserve(slots: { key: Deno.KvKey; limit: number }[], now: number): Promise<Reservation> {
    let locals: LocalCounter[];
    for (;;) {
      locals = slots.map((s) => this.#localOf(JSON.stringify(s.key), now));
      locals.forEach((l, i) => {
        if (l.known >= slots[i].limit) throw new TooManyRequestsError((l.until - now) / 1000);
      });
      const full = locals.find((l, i) => l.known + l.pending >= slots[i].limit);
      if (!full) break;
      await new Promise<void>((resolve) => full.waiters.push(resolve));
    }
    for (const l of locals) l.pending++;
    try {
      await this.#reserveInKv(slots, locals, now);
    } finally {
      for (const l of locals) {
        l.pending--;
        for (const wake of l.waiters.splice(0)) wake();
      }
    }
    return { release: () => this.#release(slots.map((s) => s.key), locals, now) };
  }

  #localOf(id: string, now: number): LocalCounter {
    let l = this.#local.get(id);
    if (l && l.until <= now && l.pending === 0) l = undefined;
    if (!l) {
      if (this.#local.size >= MAX_LOCAL) this.#prune(now);
      l = { known: 0, pending: 0, until: now + this.#options.windowMs, waiters: [] };
      this.#local.set(id, l);
    }
    return l;
  }

  /** Drops ended windows, then the oldest idle entries: the local view is only a front for KV. */
  #prune(now: number): void {
    for (const [id, l] of this.#local) if (l.until <= now && l.pending === 0) this.#local.delete(id);
    for (const [id, l] of this.#local) {
      if (this.#local.size < MAX_LOCAL) break;
      if (l.pending === 0) this.#local.delete(id);
    }
  }

  #live(value: Counter | null, now: number): Counter {
    return value && value.until > now ? value : { n: 0, until: now + this.#options.windowMs };
  }

  async #reserveInKv(
    slots: { key: Deno.KvKey; limit: number }[],
    locals: LocalCounter[],
    now: number,
  ): Promise<void> {
    for (let attempt = 0; attempt < MAX_CAS_TRIES; attempt++) {
      const entries = await busyRetry(() => this.#kv.getMany<Counter[]>(slots.map((s) => s.key)));
      if (!entries) continue;
      const counters = entries.map((e) => this.#live(e.value, now));
      counters.forEach((c, i) => Object.assign(locals[i], { known: c.n, until: c.until }));
      counters.forEach((c, i) => {
        if (c.n >= slots[i].limit) throw new TooManyRequestsError((c.until - now) / 1000);
      });
      const op = this.#kv.atomic();
      entries.forEach((e, i) => {
        const c = counters[i];
        op.check(e).set(e.key, { n: c.n + 1, until: c.until }, { expireIn: c.until - now });
      });
      if ((await busyRetry(() => op.commit()))?.ok) {
        counters.forEach((c, i) => locals[i].known = Math.max(locals[i].known, c.n + 1));
        return;
      }
    }
    // Never evaluate a guess whose slot could not be recorded.
    throw new TooManyRequestsError(1, "throttle_contended");
  }

  async #release(slotKeys: Deno.KvKey[], locals: LocalCounter[], now: number): Promise<void> {
    for (const l of locals) l.known = Math.max(0, l.known - 1);
    for (let attempt = 0; attempt < MAX_CAS_TRIES; attempt++) {
      const entries = await busyRetry(() => this.#kv.getMany<Counter[]>(slotKeys));
      if (!entries) continue;
      const op = this.#kv.atomic();
      let writes = 0;
      for (const e of entries) {
        const c = e.value;
        if (!c || c.until <= now || c.n <= 0) continue;
        op.check(e).set(e.key, { n: c.n - 1, until: c.until }, { expireIn: c.until - now });
        writes++;
      }
      if (writes === 0 || (await busyRetry(() => op.commit()))?.ok) return;
    }
  }
}

function subjectKey(subject: string): string {
  return subject.length > SUBJECT_MAX ? `${subject.slice(0, SUBJECT_MAX)}…${subject.length}` : subject;
}

/** How many more guesses a client may spread over several users (or shares) than it may spend on one. */
export const CLIENT_LIMIT_FACTOR = 5;

/**
 * Runs a KV call; null after a short random pause when the database is busy (two processes on one SQLite file
 * answer "database is locked" instead of waiting), so the caller's CAS loop tries again.
 */
async function busyRetry<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (err) {
    if (!isKvBusy(err)) throw err;
    await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 10));
    return null;
  }
}

/**
 * A password-guess throttle of a scope: `limit` per (client, subject), CLIENT_LIMIT_FACTOR times that per client.
 * Create one per scope and app (AppDeps.throttles): its slots taken in this process live in the instance.
 */
export function guessThrottle(kv: Deno.Kv, scope: string, limit: number): Throttle {
  return new Throttle(kv, { scope, limit, clientLimit: limit * CLIENT_LIMIT_FACTOR });
}

/** Wrong one-time codes an account may take per {@link SECOND_FACTOR_WINDOW_MS}, from any number of clients. */
export const SECOND_FACTOR_BUDGET = 10;
/** The window of {@link SECOND_FACTOR_BUDGET}: 15 minutes from the first wrong code. */
export const SECOND_FACTOR_WINDOW_MS = 15 * 60_000;

/**
 * The per-account budget of wrong second-factor codes (RFC 6238 §5.2), used through
 * {@link Throttle.reserveSubject}: ten wrong codes in 15 minutes, then 429 until the window ends.
 */
export function secondFactorThrottle(kv: Deno.Kv): Throttle {
  return new Throttle(kv, {
    scope: "otp",
    limit: SECOND_FACTOR_BUDGET,
    clientLimit: SECOND_FACTOR_BUDGET,
    windowMs: SECOND_FACTOR_WINDOW_MS,
  });
}
