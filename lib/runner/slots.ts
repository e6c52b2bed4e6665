/**
 * Caps on sandboxes that start without a person waiting at a terminal (event hooks): at most `perUser` of one
 * user and `global` in all run at once; the rest wait their turn, first come first served, and at most `maxQueued`
 * wait (beyond that a run is refused rather than queued without bound).
 */
import { Semaphore } from "../semaphore.ts";

/** The caps of {@link SandboxSlots}. */
export interface SlotLimits {
  perUser: number;
  global: number;
  /** Runs that may wait for a slot at once (all users together). */
  maxQueued: number;
}

/** Too many runs are waiting already. */
export class SlotsFullError extends Error {
  constructor() {
    super("too many commands are waiting to run");
    this.name = "SlotsFullError";
  }
}

/** Per-user and global slots of running sandboxes. */
export class SandboxSlots {
  readonly limits: SlotLimits;
  readonly #global: Semaphore;
  readonly #users = new Map<number, { semaphore: Semaphore; users: number }>();
  #waiting = 0;

  constructor(limits: SlotLimits) {
    this.limits = limits;
    this.#global = new Semaphore(limits.global);
  }

  /** Runs now (not waiting for a slot). */
  get running(): number {
    return this.#global.active;
  }

  /** Waiting for a slot. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Runs `job` once the user and the server have a free slot; throws SlotsFullError when too many wait. */
  async run<T>(userId: number, job: () => Promise<T>): Promise<T> {
    if (this.#waiting >= this.limits.maxQueued) throw new SlotsFullError();
    let own = this.#users.get(userId);
    if (!own) this.#users.set(userId, own = { semaphore: new Semaphore(this.limits.perUser), users: 0 });
    own.users++;
    this.#waiting++;
    let started = false;
    const start = () => {
      if (!started) this.#waiting--;
      started = true;
    };
    try {
      // The user's slot first, the global one last: a user's queue never holds global slots while it waits.
      return await own.semaphore.run(() =>
        this.#global.run(() => {
          start();
          return job();
        })
      );
    } finally {
      start();
      // An idle user's semaphore is forgotten, so users seen once do not pile up.
      if (--own.users === 0) this.#users.delete(userId);
    }
  }
}
