/**
 * Quota reservations for writes in flight (docs/configuration.md#quotas). A check alone lets parallel writes
 * that each fit overshoot the quota together, so every quota check also counts what is already promised:
 * the declared lengths of unfinished tus uploads into the scope (their KV records, so other instances' uploads
 * count too) and the holds of plain writes, copies and extractions running in this process. Checks of one
 * scope run one at a time; a write keeps its hold until its bytes are in place and the usage cache has been
 * dropped, so for a moment they may count twice (never zero times). The holds live in one ledger per app
 * (AppDeps.quotaLedger).
 */
import { InsufficientStorageError } from "../errors.ts";
import { isSameOrInside } from "../fs/path.ts";
import { type QuotaDeps, quotaOf, type QuotaUser, usageKeyOf, usedBytes } from "../quota.ts";
import { listUploads } from "./store.ts";

/** Bytes promised to one running write; released (disposed) once its bytes are on disk or it failed. */
export interface QuotaHold extends Disposable {
  /** Bytes held now. */
  readonly bytes: number;
  /**
   * Makes sure the write's `total` bytes so far are held (less those settled), asking for more under the scope's
   * lock; throws 507 when they do not fit.
   */
  grow(total: number): Promise<void>;
  /** `bytes` of the write are in place (a finished file of many): drops the usage cache, then holds that less. */
  settle(bytes: number): void;
  /** Drops the usage cache of the scope, then the hold (idempotent). */
  release(): void;
}

/** Options of {@link reserveQuota}. */
export interface ReserveOptions {
  /** Real path of the file the write replaces: an unfinished upload to it is not counted (it is replaced). */
  target?: string;
}

interface Ledger {
  holds: Set<{ bytes: number }>;
  /** Tail of the queue of checks on this scope. */
  tail: Promise<void>;
}

/** The holds and check queues of one app, per quota scope. */
export class QuotaLedger {
  readonly #ledgers = new Map<string, Ledger>();

  /** The ledger of a scope (created on first use). */
  of(key: string): Ledger {
    let ledger = this.#ledgers.get(key);
    if (!ledger) {
      ledger = { holds: new Set(), tail: Promise.resolve() };
      this.#ledgers.set(key, ledger);
    }
    return ledger;
  }
}

/** What {@link reserveQuota} needs from the app. */
export interface ReserveDeps extends QuotaDeps {
  /** The app's holds (AppDeps.quotaLedger). */
  quotaLedger: QuotaLedger;
}

/**
 * A growing hold asks for an eighth more than it holds, so a long stream asks the ledger some tens of times,
 * not per chunk, while a small body holds about what it brings (parallel small writes near the quota all fit).
 */
const GROWTH = 1.125;

const NO_HOLD: QuotaHold = {
  bytes: 0,
  grow: () => Promise.resolve(),
  settle: () => {},
  release: () => {},
  [Symbol.dispose]: () => {},
};

/** Runs `job` after every earlier check of the scope. */
function serialized<T>(ledger: Ledger, job: () => Promise<T>): Promise<T> {
  const run = ledger.tail.then(job);
  ledger.tail = run.then(() => {}, () => {});
  return run;
}

/** Declared bytes of the unfinished tus uploads into the scope (or by the user), less what they replace. */
async function uploadsInFlight(
  deps: QuotaDeps,
  user: QuotaUser,
  scope: string,
  skip?: string,
): Promise<number> {
  const realScope = await Deno.realPath(scope).catch(() => scope);
  let total = 0;
  for await (const { record } of listUploads(deps.kv)) {
    if (record.target === skip) continue;
    const mine = record.userId === user.id || isSameOrInside(realScope, record.target) ||
      isSameOrInside(scope, record.target);
    if (!mine) continue;
    let replaced = 0;
    if (record.override) {
      const info = await Deno.stat(record.target).catch(() => null);
      if (info?.isFile) replaced = info.size;
    }
    total += Math.max(0, record.length - replaced);
  }
  return total;
}

/** Bytes of the quota not used nor promised to anyone but `except`. Holds and uploads are read before usage. */
async function available(
  deps: QuotaDeps,
  user: QuotaUser,
  ledger: Ledger,
  options: { scope: string; skip?: string; except?: { bytes: number } },
): Promise<number> {
  let held = 0;
  for (const h of ledger.holds) if (h !== options.except) held += h.bytes;
  // A write that ends meanwhile drops the usage cache before its hold, so the usage read next includes it.
  const uploads = await uploadsInFlight(deps, user, options.scope, options.skip);
  return quotaOf(user) - held - uploads - await usedBytes(deps, user);
}

function refuse(bytes: number, left: number, quota: number): InsufficientStorageError {
  return new InsufficientStorageError(
    "quota_exceeded",
    `Cannot write ${bytes} bytes: ${Math.max(0, left)} of the ${quota} bytes of the quota are left`,
  );
}

/**
 * Holds `bytes` of the user's quota for a write about to start (507 when they do not fit beside what is used
 * and promised). Users without a quota get a hold that does nothing. Dispose of the hold (`using`) or
 * release it once the write's bytes are in place or it failed.
 */
export async function reserveQuota(
  deps: ReserveDeps,
  user: QuotaUser,
  bytes: number,
  options: ReserveOptions = {},
): Promise<QuotaHold> {
  const quota = quotaOf(user);
  if (quota === 0) return NO_HOLD;
  const scope = usageKeyOf(deps, user);
  const ledger = deps.quotaLedger.of(scope);
  const slot = { bytes: 0 };
  const want = Math.max(0, bytes);
  await serialized(ledger, async () => {
    if (want > 0) {
      const left = await available(deps, user, ledger, { scope, skip: options.target });
      if (want > left) throw refuse(want, left, quota);
      slot.bytes = want;
    }
    // Added inside the queue: the next check already sees it.
    ledger.holds.add(slot);
  });
  let released = false;
  let settled = 0;
  const release = () => {
    if (released) return;
    released = true;
    deps.usage.invalidate(scope);
    ledger.holds.delete(slot);
  };
  return {
    get bytes() {
      return slot.bytes;
    },
    grow(all: number): Promise<void> {
      const total = all - settled;
      if (total <= slot.bytes || released) return Promise.resolve();
      return serialized(ledger, async () => {
        if (total <= slot.bytes) return;
        const left = await available(deps, user, ledger, { scope, skip: options.target, except: slot });
        if (total > left) throw refuse(total, left, quota);
        slot.bytes = Math.min(left, Math.max(total, Math.floor(slot.bytes * GROWTH)));
      });
    },
    settle(bytes: number): void {
      if (bytes <= 0 || released) return;
      // As at release: the usage read next includes these bytes before the hold lets go of them.
      deps.usage.invalidate(scope);
      settled += bytes;
      slot.bytes = Math.max(0, slot.bytes - bytes);
    },
    release,
    [Symbol.dispose]: release,
  };
}

/**
 * Passes a body through a hold: the hold grows ahead of the bytes (`replaced` bytes of the file the body
 * replaces are free), and the stream errors with 507 when the next bytes would not fit (the atomic write then
 * leaves nothing behind).
 */
export function heldBody(
  body: ReadableStream<Uint8Array>,
  hold: QuotaHold,
  replaced: number,
): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      async transform(chunk, controller) {
        seen += chunk.byteLength;
        await hold.grow(seen - replaced);
        controller.enqueue(chunk);
      },
    }),
  );
}
