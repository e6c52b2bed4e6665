/** Removal of abandoned uploads: records and staging files untouched for longer than `config.uploadExpiry`. */
import { readDir, serverPath, stat } from "../fs/floor.ts";
import { log } from "../log.ts";
import { removeStagingFile, stagingPath, uploadIdOf } from "./staging.ts";
import { dropLease, forgetLease, takeLease } from "./lock.ts";
import { deleteUpload, listUploads, targetKeyOf } from "./store.ts";
import { lastActivityOf } from "./target.ts";
import type { UploadDeps } from "./target.ts";

/** What one cleanup pass removed. */
export interface CleanupResult {
  /** Abandoned upload records removed (with their staging files). */
  uploads: number;
  /** Staging files without a record (left by a crash between file and record creation). */
  orphans: number;
}

/**
 * Removes uploads whose last activity (creation, or the staging file's mtime) is older than `config.uploadExpiry`, and staging files that belong to no
 * upload and are older than that. Uploads with a running chunk (held lock) are skipped. Only the staging
 * directory is touched: target files are never deleted. Call it periodically (main.ts wires a timer).
 */
export async function cleanupUploads(
  deps: Pick<UploadDeps, "config" | "kv" | "now" | "leases">,
): Promise<CleanupResult> {
  const now = deps.now();
  const maxAge = deps.config.uploadExpiry * 1000;
  const result: CleanupResult = { uploads: 0, orphans: 0 };
  const live = new Set<string>();
  for await (const entry of listUploads(deps.kv)) {
    const { record } = entry;
    if (now - await lastActivityOf(deps, entry) <= maxAge) {
      live.add(record.id);
      continue;
    }
    const key = await targetKeyOf(record.target);
    const lock = await takeLease(deps.leases, key, { now });
    if (!lock) {
      // A chunk is running: it is alive after all.
      live.add(record.id);
      continue;
    }
    if (!await deleteUpload(deps.kv, key, { expect: entry.versionstamp, lock })) {
      await dropLease(deps.leases, key, lock);
      live.add(record.id);
      continue;
    }
    forgetLease(deps.leases, key, lock);
    await removeStagingFile(stagingPath(deps.config.uploadDir, record.id));
    result.uploads++;
  }
  try {
    for await (const item of readDir(serverPath(deps.config.uploadDir))) {
      const id = item.isFile ? uploadIdOf(item.name) : null;
      if (id === null || live.has(id)) continue;
      const path = stagingPath(deps.config.uploadDir, id);
      const info = await stat(serverPath(path)).catch(() => null);
      if (!info || now - (info.mtime?.getTime() ?? now) <= maxAge) continue;
      // The record may have been created after the listing above: look again before deleting.
      if (await hasRecord(deps, id)) continue;
      await removeStagingFile(path);
      result.orphans++;
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  if (result.uploads || result.orphans) {
    log.info(
      `upload cleanup: removed ${result.uploads} abandoned uploads, ${result.orphans} orphaned staging files`,
    );
  }
  return result;
}

async function hasRecord(deps: Pick<UploadDeps, "kv">, id: string): Promise<boolean> {
  for await (const entry of listUploads(deps.kv)) if (entry.record.id === id) return true;
  return false;
}
