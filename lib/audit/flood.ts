/**
 * Refused anonymous requests in the audit log, bounded (docs/security.md#audit-log). Anyone can send them, as
 * fast as the network allows: stored one by one they would fill the database (1 MB/s from one client, kept for
 * `--audit-days`). Per client and kind of action (its group: `login`, `file`, `share`, `api`, …), the first
 * {@link PER_CLIENT} of a minute are recorded in full, and at most {@link OVERALL} of all clients together; the
 * rest are counted, and each count becomes one `audit.suppressed` entry once its minute is over. A client still
 * refused past its budget in one minute starts the next with none left, so a flood that goes on costs one entry
 * a minute. A group of its own per kind keeps a burst of junk from hiding password guesses in the same minute.
 *
 * The counts live in this process (one gate per app, `AppDeps.auditGate`); several instances each keep their own.
 */

/** Length of a counting window. */
export const WINDOW_MS = 60_000;
/** Refused anonymous requests recorded in full per client, group and window. */
export const PER_CLIENT = 10;
/** Refused anonymous requests recorded in full per window, all clients together. */
export const OVERALL = 100;
/** Clients counted one by one per window; more are counted together as client `*`. */
export const MAX_TRACKED = 256;
/** The action of a count's entry. */
export const SUPPRESSED_ACTION = "audit.suppressed";

/** What the requests of one client and group left out of the log in one window. */
export interface SuppressedCount {
  client: string;
  group: string;
  /** Requests counted but not recorded. */
  count: number;
}

interface Tally {
  client: string;
  group: string;
  recorded: number;
  suppressed: number;
}

/** The group of an action: its part before the first dot. */
export function actionGroup(action: string): string {
  const dot = action.indexOf(".");
  return dot < 0 ? action : action.slice(0, dot);
}

/** Decides which refused anonymous requests are recorded in full, and counts the rest. */
export class AuditGate {
  #window = -1;
  #overall = 0;
  #tallies = new Map<string, Tally>();

  /**
   * Whether to record this refused anonymous request in full (else it is counted), plus the counts of windows that
   * ended before `now`, to be written first.
   */
  admit(client: string, action: string, now: number): { record: boolean; due: SuppressedCount[] } {
    const due = this.#roll(now);
    const tally = this.#tallyOf(client, actionGroup(action));
    if (tally.recorded < PER_CLIENT && this.#overall < OVERALL) {
      tally.recorded++;
      this.#overall++;
      return { record: true, due };
    }
    tally.suppressed++;
    return { record: false, due };
  }

  /** The counts of windows that ended before `now` (the periodic flush); `final` also ends the current one. */
  flush(now: number, options: { final?: boolean } = {}): SuppressedCount[] {
    if (!options.final) return this.#roll(now);
    const due = this.#counts();
    this.#tallies.clear();
    return due;
  }

  #counts(): SuppressedCount[] {
    const out: SuppressedCount[] = [];
    for (const t of this.#tallies.values()) {
      if (t.suppressed > 0) out.push({ client: t.client, group: t.group, count: t.suppressed });
    }
    return out;
  }

  #roll(now: number): SuppressedCount[] {
    const window = Math.floor(now / WINDOW_MS);
    if (window === this.#window) return [];
    const due = this.#counts();
    const flooding = [...this.#tallies].filter(([, t]) => t.suppressed > 0);
    // Clients that flooded the window that ended start with their budget spent; the others are forgotten.
    this.#tallies = new Map(flooding.map(([k, t]) => [k, { ...t, recorded: PER_CLIENT, suppressed: 0 }]));
    // Only a window that directly follows keeps its floods: after a quiet minute everyone starts afresh.
    if (window !== this.#window + 1) this.#tallies.clear();
    this.#window = window;
    this.#overall = 0;
    return due;
  }

  #tallyOf(client: string, group: string): Tally {
    let key = `${group}\0${client}`;
    let tally = this.#tallies.get(key);
    if (tally) return tally;
    // Past the tracked clients (many addresses, an IPv6 range), the rest share one count per group.
    if (this.#tallies.size >= MAX_TRACKED) {
      client = "*";
      key = `${group}\0*`;
      tally = this.#tallies.get(key);
      if (tally) return tally;
    }
    tally = { client, group, recorded: 0, suppressed: 0 };
    this.#tallies.set(key, tally);
    return tally;
  }
}
