/**
 * The quota holds of writes in flight, in KV, so that every instance on one database counts them
 * (docs/configuration.md#quotas). Per scope folder (its sha256, lib/storage/keys.ts) KV keeps:
 *
 * - an epoch (a Deno.KvU64): its value is the scope's usage generation, bumped whenever bytes of a held write
 *   land (so cached usage counts elsewhere are recounted); its versionstamp changes with every hold admitted,
 *   which makes it the version of the scope's holds;
 * - one lease per hold: its bytes, the instance that runs the write and `until`, the end of its lease. A lease
 *   that ran out is not counted (a crashed instance's holds stop counting after {@link HOLD_LEASE_MS}); KV also
 *   expires it by itself.
 *
 * Admitting a hold reads the scope with one listing (epoch first, then the holds) and writes it with one atomic
 * that checks the epoch's versionstamp and bumps it: of two instances racing on the same state, one commits and
 * the other reads again. Checks of one scope still run one at a time inside an instance. A heartbeat renews the
 * leases of this instance's holds while their writes run (at most {@link MAX_HOLD_MS} each); every KV write of a
 * hold goes through that hold's own queue, so a renewal cannot resurrect a released hold or undo a change.
 */
import { log } from "../log.ts";
import { generationOf, scopeIdOf } from "../quota.ts";
import { isKvBusy, whenKvFree } from "../storage/busy.ts";
import { keys } from "../storage/keys.ts";

/** How long a hold counts without being renewed. */
export const HOLD_LEASE_MS = 60_000;
/** How often the heartbeat renews the leases of this instance's holds. */
export const HOLD_RENEW_MS = 20_000;
/** A hold is renewed for at most this long; a write running longer keeps going but its lease runs out. */
export const MAX_HOLD_MS = 24 * 60 * 60_000;
/** Expired leases of other instances deleted by one admission (the rest go with later ones or by expiry). */
const MAX_SWEPT = 4;

/** The value of a hold's lease in KV. */
export interface QuotaHoldRecord {
  bytes: number;
  /** The instance (QuotaLedger.instance) running the write. */
  instance: string;
  /** End of the lease (the ledger's clock, milliseconds). */
  until: number;
}

/** One reading of a scope's holds. */
export interface LedgerView {
  /** Versionstamp of the epoch (null before the first hold of the scope). */
  versionstamp: string | null;
  /** The scope's usage generation (see lib/quota.ts). */
  generation: string;
  /** Bytes of every live hold, by hold id. */
  holds: Map<string, number>;
  /** Keys and versionstamps of leases that ran out, to delete while admitting. */
  expired: { key: Deno.KvKey; versionstamp: string }[];
}

/** Options of {@link QuotaLedger}. */
export interface QuotaLedgerOptions {
  /** Clock in milliseconds (default Date.now); tests pass a fake one. */
  now?: () => number;
  leaseMs?: number;
  renewMs?: number;
}

/** A hold of this instance; its KV writes run one after another. */
export class LedgerHold {
  readonly id = crypto.randomUUID();
  /** Bytes of the hold: admitted ones once in KV, lowered ones at once (their KV write is queued). */
  bytes = 0;
  released = false;
  readonly #ledger: QuotaLedger;
  readonly scope: string;
  readonly createdAt: number;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(ledger: QuotaLedger, scope: string, createdAt: number) {
    this.#ledger = ledger;
    this.scope = scope;
    this.createdAt = createdAt;
  }

  /** Runs `job` after the earlier KV writes of this hold. */
  queue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(job);
    this.#tail = run.catch(() => {});
    return run;
  }

  /** Writes `bytes` as the hold if the scope's holds are still as `view` read them; false on a conflict. */
  commit(view: LedgerView, bytes: number): Promise<boolean> {
    return this.queue(() => this.#ledger.admit(this, view, bytes));
  }

  /** Some bytes landed: the hold keeps `bytes` (at once here, in KV in turn), and the usage generation moves on. */
  shrink(bytes: number): Promise<void> {
    this.bytes = bytes;
    return this.queue(() => this.#ledger.landed(this, bytes));
  }

  /** Deletes the hold (idempotent) and moves the scope's usage generation on. */
  release(): Promise<void> {
    if (this.released) return this.queue(() => Promise.resolve());
    this.released = true;
    return this.queue(() => this.#ledger.landed(this, 0));
  }
}

/** The quota holds of one app (AppDeps.quotaLedger): reads and writes them in KV, renews this instance's. */
export class QuotaLedger {
  /** Names this app's holds in KV (diagnostics: which instance a hold belongs to). */
  readonly instance = crypto.randomUUID();
  readonly #kv: Deno.Kv;
  readonly #now: () => number;
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #queues = new Map<string, Promise<unknown>>();
  /** Holds with a lease in KV, renewed by the heartbeat. */
  readonly #live = new Set<LedgerHold>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(kv: Deno.Kv, options: QuotaLedgerOptions = {}) {
    this.#kv = kv;
    this.#now = options.now ?? Date.now;
    this.#leaseMs = options.leaseMs ?? HOLD_LEASE_MS;
    this.#renewMs = options.renewMs ?? HOLD_RENEW_MS;
  }

  /** A new hold of `scope` (a scope folder), holding nothing until its first commit. */
  hold(scope: string): LedgerHold {
    return new LedgerHold(this, scope, this.#now());
  }

  /** Runs `job` after every earlier job on the scope in this instance. */
  serialized<T>(scope: string, job: () => Promise<T>): Promise<T> {
    const run = (this.#queues.get(scope) ?? Promise.resolve()).then(job);
    const tail = run.catch(() => {});
    this.#queues.set(scope, tail);
    // The queue of an idle scope is forgotten, so scopes used once do not pile up.
    tail.then(() => this.#queues.get(scope) === tail && this.#queues.delete(scope));
    return run;
  }

  /** Reads the scope's epoch and live holds: one listing. */
  async view(scope: string): Promise<LedgerView> {
    const id = await scopeIdOf(scope);
    const epochKey = keys.quotaEpoch(id);
    const view: LedgerView = { versionstamp: null, generation: "0", holds: new Map(), expired: [] };
    const now = this.#now();
    // The epoch sorts first, so it is read no later than the holds: a hold written after it changes it.
    for await (const entry of this.#kv.list({ prefix: keys.quotaScopePrefix(id) })) {
      if (sameKey(entry.key, epochKey)) {
        view.versionstamp = entry.versionstamp;
        view.generation = generationOf(entry.value);
        continue;
      }
      const record = entry.value as Partial<QuotaHoldRecord> | null;
      const bytes = typeof record?.bytes === "number" && record.bytes > 0 ? record.bytes : 0;
      const until = typeof record?.until === "number" ? record.until : 0;
      if (until > now) view.holds.set(String(entry.key.at(-1)), bytes);
      else view.expired.push({ key: entry.key, versionstamp: entry.versionstamp });
    }
    return view;
  }

  /** See {@link LedgerHold.commit}. */
  async admit(hold: LedgerHold, view: LedgerView, bytes: number): Promise<boolean> {
    if (hold.released) return true;
    const id = await scopeIdOf(hold.scope);
    const epoch = keys.quotaEpoch(id);
    const op = this.#kv.atomic().check({ key: epoch, versionstamp: view.versionstamp });
    // Deleting a lease that ran out is checked too: a late renewal of it wins, and this admission reads again.
    for (const gone of view.expired.slice(0, MAX_SWEPT)) op.check(gone).delete(gone.key);
    op.set(keys.quotaHold(id, hold.id), this.#record(bytes), { expireIn: this.#leaseMs }).sum(epoch, 0n);
    // Another process's commit holding the SQLite file is a lost race too: the caller reads again.
    const result = await op.commit().catch((err) => isKvBusy(err) ? null : Promise.reject(err));
    if (!result?.ok) return false;
    hold.bytes = bytes;
    this.#track(hold);
    return true;
  }

  /** Lowers a hold to `bytes` (0 deletes it) and bumps the scope's usage generation, in one atomic. */
  async landed(hold: LedgerHold, bytes: number): Promise<void> {
    if (!this.#live.has(hold)) return;
    const id = await scopeIdOf(hold.scope);
    const key = keys.quotaHold(id, hold.id);
    await whenKvFree(() => {
      const op = this.#kv.atomic().sum(keys.quotaEpoch(id), 1n);
      if (bytes > 0 && !hold.released) op.set(key, this.#record(bytes), { expireIn: this.#leaseMs });
      else op.delete(key);
      return op.commit();
    });
    if (hold.released) {
      hold.bytes = 0;
      this.#untrack(hold);
    }
  }

  /** Bytes landed in `scope` without a hold (a finished tus upload): moves its usage generation on. */
  async bump(scope: string): Promise<void> {
    const epoch = keys.quotaEpoch(await scopeIdOf(scope));
    await whenKvFree(() => this.#kv.atomic().sum(epoch, 1n).commit());
  }

  /** Stops the heartbeat (closeDeps); the holds left expire with their leases. */
  close(): void {
    this.#live.clear();
    this.#stopHeartbeat();
  }

  #record(bytes: number): QuotaHoldRecord {
    return { bytes, instance: this.instance, until: this.#now() + this.#leaseMs };
  }

  #track(hold: LedgerHold): void {
    this.#live.add(hold);
    if (this.#timer === undefined) {
      const timer = setInterval(() => void this.heartbeat(), this.#renewMs);
      // A hold left behind must not keep the process alive.
      Deno.unrefTimer(Number(timer));
      this.#timer = timer;
    }
  }

  #untrack(hold: LedgerHold): void {
    this.#live.delete(hold);
    if (this.#live.size === 0) this.#stopHeartbeat();
  }

  #stopHeartbeat(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Renews the lease of every hold of this instance still running (the timer calls it; so may tests). */
  async heartbeat(): Promise<void> {
    const runs: Promise<void>[] = [];
    for (const hold of this.#live) {
      if (this.#now() - hold.createdAt > MAX_HOLD_MS) {
        this.#untrack(hold);
        continue;
      }
      runs.push(
        hold.queue(() => this.#renew(hold)).catch((err) => log.warn("cannot renew a quota hold", err)),
      );
    }
    await Promise.all(runs);
  }

  async #renew(hold: LedgerHold): Promise<void> {
    // A released hold is deleted, and one holding nothing has no lease to keep.
    if (hold.released || hold.bytes === 0 || !this.#live.has(hold)) return;
    const key = keys.quotaHold(await scopeIdOf(hold.scope), hold.id);
    await whenKvFree(() => this.#kv.set(key, this.#record(hold.bytes), { expireIn: this.#leaseMs }));
  }
}

function sameKey(a: Deno.KvKey, b: readonly Deno.KvKeyPart[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}
