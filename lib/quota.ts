/**
 * Per-user storage quotas (docs/configuration.md#quotas). A user's usage is the bytes of the files in their scope
 * plus their trash. The scope's bytes come from a streaming walk, cached in memory per scope folder and dropped
 * whenever a request through our API writes into an overlapping scope ({@link UsageCache}). A cached count is
 * also tied to the scope's usage generation in KV, which every write that held quota bytes bumps when its bytes
 * land (lib/upload/quota_ledger.ts), so another instance on the same database recounts after it; writes made
 * beside the server are seen at the next recount. The walk reads the scope through the disk floor
 * (lib/fs/floor.ts): each folder pinned beneath the files root, links never followed.
 */
import type { Config } from "../config.ts";
import { ForbiddenError, InsufficientStorageError } from "./errors.ts";
import { lstat, Pin, pinObject, readDir } from "./fs/floor.ts";
import { scopeDirOf } from "./fs/gate.ts";
import { isSameOrInside, joinVpath } from "./fs/path.ts";
import { keys } from "./storage/keys.ts";
import { trashBytesOf } from "./trash/store.ts";
import { targetKeyOf } from "./upload/store.ts";
import type { StoredUser, Usage } from "./types.ts";

/** What quota checks need from the app. */
export interface QuotaDeps {
  /** `followExternalSymlinks` (the unsafe mode) lets the usage walk follow a scope that leads out of the root. */
  config: Pick<Config, "root"> & Partial<Pick<Config, "followExternalSymlinks">>;
  kv: Deno.Kv;
  /** The app's cache of scope byte counts (AppDeps.usage). */
  usage: UsageCache;
}

/** The user fields a quota check reads. */
export type QuotaUser = Pick<StoredUser, "id" | "scope" | "quota">;

interface CacheEntry {
  bytes: Promise<number>;
  /** The scope's usage generation the count was started under. */
  generation: string;
}

/** Byte counts of scope folders, kept until a write into an overlapping scope; one per app (AppDeps.usage). */
export class UsageCache {
  readonly #entries = new Map<string, CacheEntry>();

  /** Forgets the usage of every scope that contains `dir` or lies inside it (call after a write there). */
  invalidate(dir: string): void {
    for (const key of this.#entries.keys()) {
      if (isSameOrInside(key, dir) || isSameOrInside(dir, key)) this.#entries.delete(key);
    }
  }

  /**
   * The cached count of `dir` when it was started under `generation`, else `count()` (remembered unless it fails
   * or is invalidated meanwhile).
   */
  bytes(dir: string, count: (dir: string) => Promise<number>, generation = ""): Promise<number> {
    const hit = this.#entries.get(dir);
    if (hit && hit.generation === generation) return hit.bytes;
    const entry: CacheEntry = { bytes: count(dir), generation };
    this.#entries.set(dir, entry);
    entry.bytes.catch(() => this.#entries.get(dir) === entry && this.#entries.delete(dir));
    return entry.bytes;
  }
}

/** What {@link recountUsage} needs: this app's usage cache and quota ledger (AppDeps has both). */
export interface RecountDeps {
  usage: UsageCache;
  quotaLedger: { bump(scope: string): Promise<void> };
}

/**
 * After writes made beside the API under the scope folder `dir` (a command, a hook, a build): this app forgets the
 * usage of every scope overlapping it, and the scope's usage generation moves on so other instances recount too.
 */
export async function recountUsage(deps: RecountDeps, dir: string): Promise<void> {
  deps.usage.invalidate(dir);
  await deps.quotaLedger.bump(dir).catch(() => {/* KV closed: this instance already forgot */});
}

/** The user's quota in bytes, or 0 when they have none. */
export function quotaOf(user: Pick<StoredUser, "quota">): number {
  const q = user.quota;
  return typeof q === "number" && Number.isFinite(q) && q > 0 ? Math.floor(q) : 0;
}

/** The scope folder of a user on disk (the key of the usage cache). */
export function usageKeyOf(deps: QuotaDeps, user: Pick<StoredUser, "scope">): string {
  // As the gate's scopeDirOf(): the root joined with the cleaned scope, which cannot climb out.
  return scopeDirOf({ root: deps.config.root, user });
}

const scopeIds = new Map<string, Promise<string>>();

/** The KV key part of a scope folder (its hex sha256: folders may be longer than a key allows). */
export function scopeIdOf(dir: string): Promise<string> {
  let id = scopeIds.get(dir);
  if (!id) {
    // A memo of a pure function; cleared wholesale so it cannot grow without bound.
    if (scopeIds.size >= 1024) scopeIds.clear();
    id = targetKeyOf(dir);
    scopeIds.set(dir, id);
  }
  return id;
}

/** The usage generation of a scope folder in KV ("0" before its first landed write). */
export async function usageGeneration(kv: Deno.Kv, dir: string): Promise<string> {
  const entry = await kv.get<Deno.KvU64>(keys.quotaEpoch(await scopeIdOf(dir)));
  return generationOf(entry.value);
}

/** A usage generation as the string the cache compares. */
export function generationOf(value: unknown): string {
  return value instanceof Deno.KvU64 ? String(value.value) : "0";
}

/**
 * Bytes of the files under the user's scope: cached, else counted by a walk. `generation` is the scope's usage
 * generation when the caller has just read it; otherwise it is read from KV.
 */
export async function scopeBytes(
  deps: QuotaDeps,
  user: Pick<StoredUser, "scope">,
  generation?: string,
): Promise<number> {
  const dir = usageKeyOf(deps, user);
  return await deps.usage.bytes(
    dir,
    (scope) => countBytes(deps, scope),
    generation ?? await usageGeneration(deps.kv, dir),
  );
}

/** Bytes counted against the user's quota: their scope plus their trash (`generation`: see scopeBytes). */
export async function usedBytes(deps: QuotaDeps, user: QuotaUser, generation?: string): Promise<number> {
  const [scope, trash] = await Promise.all([
    scopeBytes(deps, user, generation),
    trashBytesOf(deps.kv, user.id),
  ]);
  return scope + trash;
}

/**
 * Throws 507 when writing `addBytes` more would take the user past their quota (exactly full is fine).
 * Users without a quota, and writes that add nothing, pass without counting.
 */
export async function checkQuota(deps: QuotaDeps, user: QuotaUser, addBytes: number): Promise<void> {
  const quota = quotaOf(user);
  if (quota === 0 || addBytes <= 0) return;
  const used = await usedBytes(deps, user);
  if (used + addBytes > quota) {
    const left = Math.max(0, quota - used);
    throw new InsufficientStorageError(
      "quota_exceeded",
      `Cannot write ${addBytes} bytes: ${left} of the ${quota} bytes of the quota are left`,
    );
  }
}

/** The bytes the user may still write, or null without a quota. */
export async function roomLeft(deps: QuotaDeps, user: QuotaUser): Promise<number | null> {
  const quota = quotaOf(user);
  if (quota === 0) return null;
  return Math.max(0, quota - await usedBytes(deps, user));
}

/** GET /api/usage for a user with a quota: the quota as total, their usage as used; null without one. */
export async function quotaUsage(deps: QuotaDeps, user: QuotaUser): Promise<Usage | null> {
  const quota = quotaOf(user);
  if (quota === 0) return null;
  return { total: quota, used: await usedBytes(deps, user) };
}

/**
 * Passes a body through while counting: once more than `limit` bytes went by, the stream errors with 507
 * (the atomic write then leaves nothing behind).
 */
export function limitBody(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) {
          controller.error(
            new InsufficientStorageError(
              "quota_exceeded",
              `Cannot write: only ${limit} bytes of the quota are left`,
            ),
          );
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/** Where the usage walk of the scope folder `dir` starts: its real path, and the floor's anchor. */
async function walkStart(deps: QuotaDeps, dir: string): Promise<{ anchor: string; real: string } | null> {
  let real: string;
  try {
    // floor-exempt: the scope's real location, checked against the files root below; the walk pins each folder.
    real = await Deno.realPath(dir);
  } catch (err) {
    // A missing scope holds nothing.
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied) return null;
    throw err;
  }
  if (deps.config.followExternalSymlinks) return { anchor: "", real };
  // floor-exempt: the files root's real path, the floor's anchor.
  const anchor = await Deno.realPath(deps.config.root);
  // As the gate: a scope that leads outside the files root through a link is refused, not counted.
  if (!isSameOrInside(anchor, real)) {
    throw new ForbiddenError("scope_outside_root", "The scope leads outside the files root");
  }
  return { anchor, real };
}

/** An entry of a folder whose pin is held, named through its descriptor: one lstat per file, no pin of its own. */
function entryOf(folder: Pin, name: string): Pin {
  return new Pin(-1, `${folder.path}/${name}`);
}

async function countBytes(deps: QuotaDeps, dir: string): Promise<number> {
  const start = await walkStart(deps, dir);
  if (start === null) return 0;
  let total = 0;
  const stack = [start.real];
  while (stack.length) {
    const current = stack.pop()!;
    try {
      // Pinned by its real path (a folder's parent and name, never a link): one swapped for a link is skipped.
      using folder = pinObject(start.anchor, current);
      for await (const e of readDir(folder)) {
        if (e.isDirectory) stack.push(joinVpath(current, e.name));
        else if (e.isFile) total += await lstat(entryOf(folder, e.name)).then((i) => i.size, () => 0);
      }
    } catch (err) {
      // A folder that vanished, that the server may not read, or that is a link now holds nothing we could count.
      if (
        !(err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied ||
          err instanceof Deno.errors.NotADirectory || err instanceof ForbiddenError)
      ) throw err;
    }
  }
  return total;
}
