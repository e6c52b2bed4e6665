/**
 * Quota reservations for writes in flight (docs/configuration.md#quotas). A check alone lets parallel writes
 * that each fit overshoot the quota together, so every quota check also counts what is already promised:
 * the declared lengths of unfinished tus uploads into the scope (their KV records) and the holds of plain
 * writes, copies and extractions (their leases in KV, lib/upload/quota_ledger.ts). Both are shared by every
 * instance on the database, and a hold is admitted by an atomic that fails when another hold was admitted
 * meanwhile, so instances cannot both take the last bytes. A write keeps its hold until its bytes are in place
 * and the usage generation moved on (in the same atomic that deletes the hold), so for a moment they may count
 * twice (never zero times).
 */
import { InsufficientStorageError, UnavailableError } from "../errors.ts";
import { pinObject, stat } from "../fs/floor.ts";
import { isSameOrInside } from "../fs/path.ts";
import { log } from "../log.ts";
import { type QuotaDeps, quotaOf, type QuotaUser, usageKeyOf, usedBytes } from "../quota.ts";
import type { LedgerHold, LedgerView, QuotaLedger } from "./quota_ledger.ts";
import { listUploads } from "./store.ts";

export { QuotaLedger } from "./quota_ledger.ts";

/** Bytes promised to one running write; released (disposed) once its bytes are on disk or it failed. */
export interface QuotaHold extends AsyncDisposable {
  /** Bytes held now. */
  readonly bytes: number;
  /**
   * Makes sure the write's `total` bytes so far are held (less those settled), asking for more under the scope's
   * lock; throws 507 when they do not fit.
   */
  grow(total: number): Promise<void>;
  /**
   * `bytes` of the write are in place (a finished file of many): drops the usage cache, then holds that less
   * (the KV write follows in the background, before any later one of this hold).
   */
  settle(bytes: number): void;
  /** Drops the usage cache of the scope, then the hold (idempotent). */
  release(): Promise<void>;
}

/** Options of {@link reserveQuota}. */
export interface ReserveOptions {
  /** Real path of the file the write replaces: an unfinished upload to it is not counted (it is replaced). */
  target?: string;
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
/** Admissions that lost a race to another instance and read again, before giving up with 503. */
const MAX_ATTEMPTS = 50;

const NO_HOLD: QuotaHold = {
  bytes: 0,
  grow: () => Promise.resolve(),
  settle: () => {},
  release: () => Promise.resolve(),
  [Symbol.asyncDispose]: () => Promise.resolve(),
};

/** Declared bytes of the unfinished tus uploads into the scope (or by the user), less what they replace. */
async function uploadsInFlight(
  deps: QuotaDeps,
  user: QuotaUser,
  scope: string,
  skip?: string,
): Promise<number> {
  // floor-exempt: a path to compare upload targets with; nothing is read there.
  const realScope = await Deno.realPath(scope).catch(() => scope);
  // The files of replaced targets are looked at through the floor, beneath the files root ("": the unsafe mode).
  let anchor: Promise<string | null> | undefined;
  let total = 0;
  for await (const { record } of listUploads(deps.kv)) {
    if (record.target === skip) continue;
    const mine = record.userId === user.id || isSameOrInside(realScope, record.target) ||
      isSameOrInside(scope, record.target);
    if (!mine) continue;
    let replaced = 0;
    if (record.override) {
      anchor ??= deps.config.followExternalSymlinks
        ? Promise.resolve("")
        // floor-exempt: the files root's real path, the floor's anchor.
        : Deno.realPath(deps.config.root).catch(() => null);
      const root = await anchor;
      if (root !== null) replaced = await replacedBytes(root, record.target);
    }
    total += Math.max(0, record.length - replaced);
  }
  return total;
}

/**
 * Bytes of the file an upload replaces (`target`, the real path it was checked at): 0 when it is gone, not a file,
 * or no longer reached without a link (a folder swapped since: nothing outside is looked at).
 */
async function replacedBytes(anchor: string, target: string): Promise<number> {
  try {
    using pin = pinObject(anchor, target);
    const info = await stat(pin);
    return info.isFile ? info.size : 0;
  } catch {
    return 0;
  }
}

/** Bytes of the quota not used nor promised to any hold but `hold`. Holds and uploads are read before usage. */
async function available(
  deps: QuotaDeps,
  user: QuotaUser,
  view: LedgerView,
  options: { scope: string; skip?: string; hold: LedgerHold },
): Promise<number> {
  let held = 0;
  for (const [id, bytes] of view.holds) if (id !== options.hold.id) held += bytes;
  // A write that ends meanwhile bumps the usage generation as its hold goes, so the usage read next includes
  // it, or the admission's atomic fails and reads again.
  const uploads = await uploadsInFlight(deps, user, options.scope, options.skip);
  return quotaOf(user) - held - uploads - await usedBytes(deps, user, view.generation);
}

function refuse(bytes: number, left: number, quota: number): InsufficientStorageError {
  return new InsufficientStorageError(
    "quota_exceeded",
    `Cannot write ${bytes} bytes: ${Math.max(0, left)} of the ${quota} bytes of the quota are left`,
  );
}

/**
 * Under the scope's lock: reads the holds, asks `decide` how many bytes to hold given what is left (it throws
 * 507 when they do not fit) and commits them, reading again when another instance got there first.
 */
function admit(
  deps: ReserveDeps,
  user: QuotaUser,
  hold: LedgerHold,
  options: { skip?: string; decide: (left: number) => number | null },
): Promise<void> {
  const ledger = deps.quotaLedger;
  return ledger.serialized(hold.scope, async () => {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const view = await ledger.view(hold.scope);
      const left = await available(deps, user, view, { scope: hold.scope, skip: options.skip, hold });
      const bytes = options.decide(left);
      if (bytes === null || await hold.commit(view, bytes)) return;
      // Another instance admitted a hold (or one ended) meanwhile: back off a little, then read again.
      await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 10));
    }
    throw new UnavailableError("quota_busy", "Cannot check the quota: too many parallel writes, try again");
  });
}

/**
 * Holds `bytes` of the user's quota for a write about to start (507 when they do not fit beside what is used
 * and promised). Users without a quota get a hold that does nothing. Dispose of the hold (`await using`) or
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
  const hold = deps.quotaLedger.hold(scope);
  const want = Math.max(0, bytes);
  // Nothing to hold yet (a body that streams): no KV write until it grows.
  if (want > 0) {
    await admit(deps, user, hold, {
      skip: options.target,
      decide(left) {
        if (want > left) throw refuse(want, left, quota);
        return want;
      },
    });
  }
  let settled = 0;
  const release = async () => {
    if (hold.released) return;
    deps.usage.invalidate(scope);
    // The write itself is over: a hold that cannot be deleted now stops counting when its lease runs out.
    await hold.release().catch((err) => log.warn("cannot release a quota hold", err));
  };
  return {
    get bytes() {
      return hold.bytes;
    },
    grow(all: number): Promise<void> {
      const total = all - settled;
      if (total <= hold.bytes || hold.released) return Promise.resolve();
      return admit(deps, user, hold, {
        skip: options.target,
        decide(left) {
          if (total <= hold.bytes) return null;
          if (total > left) throw refuse(total, left, quota);
          return Math.min(left, Math.max(total, Math.floor(hold.bytes * GROWTH)));
        },
      });
    },
    settle(bytes: number): void {
      if (bytes <= 0 || hold.released) return;
      // As at release: the usage read next includes these bytes before the hold lets go of them.
      deps.usage.invalidate(scope);
      settled += bytes;
      hold.shrink(Math.max(0, hold.bytes - bytes)).catch((err) => log.warn("cannot lower a quota hold", err));
    },
    release,
    [Symbol.asyncDispose]: release,
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
