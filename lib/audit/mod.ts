/**
 * The audit log: who did what, from where, when, and with which result. One entry per event goes to Deno KV
 * (`["audit", time, id]`, kept `--audit-days`) and, as one JSON line at info level, to the server log.
 * Entries never hold passwords, tokens or request bodies. See docs/security.md#audit-log.
 */
import { log } from "../log.ts";
import type { AppDeps } from "../state.ts";
import { keys } from "../storage/keys.ts";
import type { AuditEntry } from "../types.ts";
import { type AuditGate, SUPPRESSED_ACTION, type SuppressedCount } from "./flood.ts";

export type { AuditEntry } from "../types.ts";

/** What a caller records; id and time are filled in. */
export type AuditEvent = Omit<AuditEntry, "id" | "time" | "ok" | "target" | "detail" | "path"> & {
  path?: string;
  target?: string;
  detail?: string;
};

/** Longest stored text of one field: a hostile username or path cannot bloat the log. */
export const MAX_FIELD = 1024;
/** Longest stored text of one field of a refused anonymous request (anyone can send those). */
export const ANONYMOUS_FIELD = 256;

let sequence = 0;

/** Most entries written in one KV commit (a clipped entry is at most a few KiB; a commit takes up to 800 KiB). */
const MAX_BATCH = 32;

interface Pending {
  entry: AuditEntry;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * One writer per KV: while a commit is in flight, new entries wait and go out together in the next one (group
 * commit). A lone entry is written at once; under load (every download is an event) the entries of many requests
 * share one commit instead of one each. Each caller still waits for the commit that holds its entry.
 */
class AuditWriter {
  readonly #kv: Deno.Kv;
  #queue: Pending[] = [];
  #running = false;

  constructor(kv: Deno.Kv) {
    this.#kv = kv;
  }

  write(entry: AuditEntry): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ entry, resolve, reject });
      if (!this.#running) this.#run();
    });
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, MAX_BATCH);
        try {
          await this.#commit(batch.map((p) => p.entry));
          for (const p of batch) p.resolve();
        } catch (err) {
          if (batch.length === 1) batch[0].reject(err);
          // One bad entry must not lose the others: write them one by one.
          else await Promise.all(batch.map((p) => this.#commit([p.entry]).then(p.resolve, p.reject)));
        }
      }
    } finally {
      this.#running = false;
    }
  }

  async #commit(entries: AuditEntry[]): Promise<void> {
    const op = this.#kv.atomic();
    for (const e of entries) op.set(keys.auditEntry(e.time, e.id), e);
    const result = await op.commit();
    if (!result.ok) throw new Error("audit commit refused");
  }
}

const writers = new WeakMap<Deno.Kv, AuditWriter>();

function writerOf(kv: Deno.Kv): AuditWriter {
  let w = writers.get(kv);
  if (!w) writers.set(kv, w = new AuditWriter(kv));
  return w;
}

function clip(value: string | undefined, max = MAX_FIELD): string {
  const s = value ?? "";
  return s.length > max ? s.slice(0, max) + "…" : s;
}

/** Random words for ids, drawn from the system generator 256 at a time instead of one call per entry. */
const randomPool = new Uint32Array(256);
let randomAt = randomPool.length;

function random32(): number {
  if (randomAt === randomPool.length) {
    crypto.getRandomValues(randomPool);
    randomAt = 0;
  }
  return randomPool[randomAt++];
}

/** A key part that keeps entries of one millisecond in the order they were written: 6 base-36 + 8 hex digits. */
export function newId(): string {
  sequence = (sequence + 1) % 36 ** 6;
  return sequence.toString(36).padStart(6, "0") + random32().toString(16).padStart(8, "0");
}

/** What `audit()` needs of the app; without a gate (the command line) nothing is counted instead of recorded. */
export type AuditDeps = Pick<AppDeps, "kv" | "now" | "config"> & { auditGate?: AuditGate };

/** Options of {@link audit}. */
export interface AuditOptions {
  /** False: no line in the server log (the command line, whose output is not the server's log). */
  logLine?: boolean;
  /**
   * The requester is not signed in (a visitor, a failed login, a request without a valid token): refused ones
   * (status 400 and up) go through the app's gate (lib/audit/flood.ts) and have their fields cut shorter.
   */
  anonymous?: boolean;
}

/**
 * Records one event in KV (unless `--audit-days 0`) and in the server log (unless `logLine` is false). A refused
 * anonymous request past its share is counted instead (`audit.suppressed`). Never throws: a failed write is
 * logged as a warning and the request goes on.
 */
export async function audit(deps: AuditDeps, event: AuditEvent, options: AuditOptions = {}): Promise<void> {
  const gate = deps.auditGate;
  if (!gate || !options.anonymous || event.status < 400) return await record(deps, event, options, MAX_FIELD);
  const { record: full, due } = gate.admit(event.client, event.action, deps.now());
  await recordCounts(deps, due);
  if (full) await record(deps, event, options, ANONYMOUS_FIELD);
}

/**
 * Writes the counts of refused anonymous requests whose minute is over (every minute from lib/background.ts);
 * `final` writes the current minute's too (on close).
 */
export async function flushAuditCounts(deps: AuditDeps, options: { final?: boolean } = {}): Promise<void> {
  if (deps.auditGate) await recordCounts(deps, deps.auditGate.flush(deps.now(), options));
}

async function recordCounts(deps: AuditDeps, counts: SuppressedCount[]): Promise<void> {
  for (const c of counts) {
    const event = { user: "", action: SUPPRESSED_ACTION, client: c.client, target: c.group, status: 429 };
    await record(deps, { ...event, detail: String(c.count) }, {}, MAX_FIELD);
  }
}

async function record(deps: AuditDeps, event: AuditEvent, options: AuditOptions, max: number): Promise<void> {
  try {
    const entry: AuditEntry = {
      id: newId(),
      time: deps.now(),
      user: clip(event.user, max),
      action: clip(event.action, max),
      path: clip(event.path, max),
      target: clip(event.target, max),
      client: clip(event.client, max),
      status: event.status,
      ok: event.status < 400,
      detail: clip(event.detail, max),
    };
    if (options.logLine !== false) {
      log.info(JSON.stringify({ event: "audit", ...entry, time: new Date(entry.time).toISOString() }));
    }
    if ((deps.config.auditDays ?? 0) > 0) {
      await writerOf(deps.kv).write(entry);
    }
  } catch (err) {
    log.warn(`audit: could not record ${event.action}: ${(err as Error)?.message ?? err}`);
  }
}

/** Deletes entries older than `--audit-days` (all of them with 0). Returns how many were removed. */
export async function purgeAudit(deps: AuditDeps): Promise<number> {
  const days = deps.config.auditDays ?? 0;
  const cutoff = days > 0 ? deps.now() - days * 86_400_000 : Number.MAX_SAFE_INTEGER;
  let removed = 0;
  for (;;) {
    const batch: Deno.KvKey[] = [];
    for await (
      const e of deps.kv.list({ start: keys.auditPrefix(), end: keys.auditEntryBefore(cutoff) }, {
        limit: 500,
      })
    ) batch.push(e.key);
    if (!batch.length) return removed;
    const op = deps.kv.atomic();
    for (const key of batch) op.delete(key);
    await op.commit();
    removed += batch.length;
  }
}
