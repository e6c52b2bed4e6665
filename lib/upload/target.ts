/** The per-request view of an upload: who asks, through which gate, and the target it addresses. */
import type { Config } from "../../config.ts";
import { BadRequestError, ConflictError, NotFoundError } from "../errors.ts";
import { serverPath, stat } from "../fs/floor.ts";
import { assertPermission, resolveScoped, scopeDirOf } from "../fs/gate.ts";
import type { GateContext, Need, ScopedPath } from "../fs/gate.ts";
import type { EventHooks, HookContext } from "../hooks.ts";
import { log } from "../log.ts";
import { quotaOf, type UsageCache, usageKeyOf } from "../quota.ts";
import type { StoredUser } from "../types.ts";
import { removeStagingFile, stagingPath, stagingSize } from "./staging.ts";
import { placeFile } from "./placement.ts";
import { forgetLease, type UploadLeases } from "./lock.ts";
import { isVisitorUpload } from "./drop_guard.ts";
import type { StagingSync } from "./background_sync.ts";
import type { QuotaLedger } from "./reservations.ts";
import { deleteUpload, findUpload, targetKeyOf } from "./store.ts";
import type { UploadEntry } from "./store.ts";
import type { UploadLock } from "./lock.ts";

/** The dependencies an upload operation uses. */
export interface UploadDeps {
  config: Pick<Readonly<Config>, "uploadDir" | "uploadExpiry" | "root" | "followExternalSymlinks">;
  kv: Deno.Kv;
  hooks: EventHooks;
  /** Clock in milliseconds. */
  now: () => number;
  /** Scope byte counts for quota checks (AppDeps.usage). */
  usage: UsageCache;
  /** The upload leases this app holds (AppDeps.leases). */
  leases: UploadLeases;
  /** Quota holds of this app's writes (AppDeps.quotaLedger). */
  quotaLedger: QuotaLedger;
  /** Background syncs of this app's staging files (AppDeps.stagingSync). */
  stagingSync: StagingSync;
}

/** Who uploads, and the gate their paths go through. */
export interface UploadContext {
  deps: UploadDeps;
  user: StoredUser;
  gate: GateContext;
}

/** What a client learns about an upload (HEAD / PATCH answers). */
export interface UploadStatus {
  /** Canonical target vpath (for the Location header). */
  vpath: string;
  offset: number;
  length: number;
  /** The file is in place. */
  complete: boolean;
}

/** A target resolved through the gate, with the key of its upload record. */
export interface UploadTarget {
  path: ScopedPath;
  key: string;
}

/** Resolves an upload target through the gate (permission, rules, hidden files, scope, symlinks). */
export async function resolveTarget(
  ctx: UploadContext,
  vpath: string,
  need: Need | Need[],
): Promise<UploadTarget> {
  const path = await resolveScoped(ctx.gate, vpath, need);
  return { path, key: await targetKeyOf(path.real) };
}

/**
 * The caller's upload to a target; 404 when there is none (another user's upload is not visible, nor, to the
 * owner of a drop link, a visitor's upload that runs as them).
 */
export async function getOwnUpload(ctx: UploadContext, target: UploadTarget): Promise<UploadEntry> {
  const entry = await findUpload(ctx.deps.kv, target.key);
  if (!entry || entry.record.userId !== ctx.user.id) throw new NotFoundError("upload_not_found");
  if (await isVisitorUpload(ctx.deps.kv, target.key, ctx.gate.base !== undefined)) {
    throw new NotFoundError("upload_not_found");
  }
  return entry;
}

/** An upload with its offset: the size of its staging file. */
export interface UploadProgress {
  entry: UploadEntry;
  offset: number;
}

/**
 * The caller's upload and its offset. The offset is the staging file's size (bytes are appended in order, so
 * whatever is there was received in order), which needs no KV write per chunk and stays right after a crash.
 * A vanished staging file ends the upload (404).
 */
export async function getUploadProgress(ctx: UploadContext, target: UploadTarget): Promise<UploadProgress> {
  const entry = await getOwnUpload(ctx, target);
  const offset = await stagingSize(stagingPath(ctx.deps.config.uploadDir, entry.record.id));
  if (offset === null) {
    await discardUpload(ctx, target, { entry });
    throw new NotFoundError("upload_not_found", "Staging data of the upload is gone");
  }
  return { entry, offset };
}

/** The hook context of an upload to `target`. */
export function hookContextOf(ctx: UploadContext, target: UploadTarget): HookContext {
  return { user: ctx.user, file: target.path.path, destination: scopeDirOf(ctx.gate) };
}

/** When an upload last saw activity: its creation or its last written chunk (staging file mtime), in ms. */
export async function lastActivityOf(deps: Pick<UploadDeps, "config">, entry: UploadEntry): Promise<number> {
  const info = await stat(serverPath(stagingPath(deps.config.uploadDir, entry.record.id))).catch(() => null);
  return Math.max(entry.record.createdAt, info?.mtime?.getTime() ?? 0);
}

/** Throws unless `target` may receive the upload's bytes now: not a directory, existing only with override. */
export function assertPlaceable(
  ctx: UploadContext,
  target: UploadTarget,
  options: { override: boolean },
): void {
  const p = target.path;
  if (p.trailingSlash || p.vpath === "/" || p.stat?.isDirectory) {
    // Upstream leaks the on-disk path here; the vpath is enough.
    throw new BadRequestError(`cannot upload to a directory "${p.vpath}"`, { code: "target_is_directory" });
  }
  if (p.stat === null) return;
  if (!options.override) {
    throw new ConflictError("target_exists", `Cannot upload "${p.vpath}": target exists`);
  }
  assertPermission(ctx.gate.user, "modify");
}

/** Forgets an upload: its record (and lock, when held) and its staging file. */
export async function discardUpload(
  ctx: UploadContext,
  target: UploadTarget,
  options: { entry: UploadEntry; lock?: UploadLock },
): Promise<boolean> {
  const removed = await deleteUpload(ctx.deps.kv, target.key, {
    expect: options.entry.versionstamp,
    lock: options.lock,
  });
  if (removed && options.lock) forgetLease(ctx.deps.leases, target.key, options.lock);
  if (removed) await removeStagingFile(stagingPath(ctx.deps.config.uploadDir, options.entry.record.id));
  return removed;
}

/**
 * Moves a fully received upload into place and forgets it. Any failure discards the upload (the client
 * must start over; a record stuck at its full length would look finished to tus clients). The after hook
 * runs last; its failure is logged, never reported (the file is in place).
 */
export async function completeUpload(
  ctx: UploadContext,
  target: UploadTarget,
  options: { entry: UploadEntry; lock?: UploadLock },
): Promise<void> {
  const { record } = options.entry;
  const staging = stagingPath(ctx.deps.config.uploadDir, record.id);
  try {
    assertPlaceable(ctx, target, { override: record.override });
    // Chunks were flushed in the background while they arrived: this sync finds little left to write.
    await ctx.deps.stagingSync.settle(staging);
    await placeFile(staging, target.path, { override: record.override });
    // The bytes now count in the scope: drop its cached usage, here and (through the usage generation) on other
    // instances, before the record (and its reservation) goes.
    const scope = usageKeyOf(ctx.deps, ctx.user);
    ctx.deps.usage.invalidate(scope);
    if (quotaOf(ctx.user) > 0) await ctx.deps.quotaLedger.bump(scope);
  } catch (err) {
    await discardUpload(ctx, target, options);
    throw err;
  }
  await deleteUpload(ctx.deps.kv, target.key, { expect: options.entry.versionstamp, lock: options.lock });
  if (options.lock) forgetLease(ctx.deps.leases, target.key, options.lock);
  try {
    await ctx.deps.hooks.after("upload", hookContextOf(ctx, target));
  } catch (err) {
    log.warn(`after_upload hook failed for "${record.vpath}"`, err);
  }
}
