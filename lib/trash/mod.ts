/**
 * The per-user trash (docs/api.md#trash). A deleted item moves to `<upload dir>/.trash/<id>/<name>`, outside
 * every scope (no vpath reaches it), and KV keeps its origin, time, size and owner. The upload dir sits next
 * to the files root by default, so the move is a rename; on another file system it is a copy, then a delete.
 * Restoring goes back through the path gate at the origin, with the current rules and permissions. The user's
 * side of both moves reaches the disk through the floor (lib/fs/floor.ts, ./move.ts): a folder swapped for a
 * link since the gate's check is refused, never followed; the trash directory is the server's own.
 */
import type { Config } from "../../config.ts";
import { ConflictError, ForbiddenError, NotFoundError } from "../errors.ts";
import type { EventHooks } from "../hooks.ts";
import { log } from "../log.ts";
import { ensureDirBeneath, lstatOrNull, pinAt, readDir, remove, serverPath } from "../fs/floor.ts";
import {
  assertPermission,
  type GateContext,
  resolveScoped,
  scopeDirOf,
  type ScopedPath,
} from "../fs/gate.ts";
import { joinVpath, vpathBase, vpathDir } from "../fs/path.ts";
import { numberedName } from "../fs/transfer.ts";
import type { StoredUser, TrashItem } from "../types.ts";
import { entryPlace, moveAnywhere, sizeOfEntry, storePlace } from "./move.ts";
import {
  deleteTrashRecord,
  findTrashRecord,
  listAllTrashRecords,
  listTrashRecords,
  saveTrashRecord,
  type TrashRecord,
} from "./store.ts";

export { trashBytesOf } from "./store.ts";
export type { TrashRecord } from "./store.ts";

/** What the trash needs from the app. */
export interface TrashDeps {
  config: Pick<Config, "uploadDir" | "trashDays">;
  kv: Deno.Kv;
  now: () => number;
}

/** Who is asking: the gate of their request and their record, and the event hooks a restore runs. */
export interface TrashRequest {
  gate: GateContext;
  user: StoredUser;
  hooks?: EventHooks;
}

const DAY_MS = 86_400_000;
/** A trash folder without a record (a crash between the two writes) is removed once this old. */
const ORPHAN_AGE_MS = 3_600_000;
const MAX_AUTO_NAMES = 10_000;

/** The directory holding every user's trashed items. */
export function trashDirOf(config: Pick<Config, "uploadDir">): string {
  return `${config.uploadDir}/.trash`;
}

/** True when deletions go to the trash (`--trash-days` above 0). */
export function isTrashEnabled(config: Pick<Config, "trashDays">): boolean {
  return config.trashDays > 0;
}

function itemDir(deps: TrashDeps, id: string): string {
  return `${trashDirOf(deps.config)}/${id}`;
}

/** Moves a checked, existing entry into the user's trash. The record is written first, undone on failure. */
export async function moveToTrash(deps: TrashDeps, user: StoredUser, p: ScopedPath): Promise<TrashRecord> {
  if (p.lstat === null) throw new NotFoundError();
  const record: TrashRecord = {
    id: crypto.randomUUID(),
    userId: user.id,
    vpath: p.vpath,
    name: vpathBase(p.vpath),
    isDir: p.lstat.isDirectory,
    size: await sizeOfEntry(entryPlace(p), p.lstat),
    deletedAt: deps.now(),
  };
  const dir = itemDir(deps, record.id);
  // floor-exempt: the trash directory is the server's (in the upload folder); no user path reaches it.
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  await saveTrashRecord(deps.kv, record);
  try {
    await moveAnywhere(entryPlace(p), storePlace(`${dir}/${record.name}`));
  } catch (err) {
    await deleteTrashRecord(deps.kv, record);
    await remove(serverPath(dir), { recursive: true }).catch(() => {});
    throw err;
  }
  return record;
}

/** The wire form of a record. */
function toTrashItem(deps: TrashDeps, r: TrashRecord): TrashItem {
  return {
    id: r.id,
    path: r.vpath,
    name: r.name,
    isDir: r.isDir,
    size: r.size,
    deletedAt: new Date(r.deletedAt).toISOString(),
    expiresAt: new Date(r.deletedAt + deps.config.trashDays * DAY_MS).toISOString(),
  };
}

/** The user's items, newest first; items whose origin the rules now deny or hide are left out. */
export async function listTrash(deps: TrashDeps, req: TrashRequest): Promise<TrashItem[]> {
  const out: TrashItem[] = [];
  for (const r of await listTrashRecords(deps.kv, req.user.id)) {
    if (await isOriginVisible(req.gate, r.vpath)) out.push(toTrashItem(deps, r));
  }
  return out.sort((a, b) => b.deletedAt.localeCompare(a.deletedAt) || a.name.localeCompare(b.name));
}

async function isOriginVisible(gate: GateContext, vpath: string): Promise<boolean> {
  try {
    await resolveScoped(gate, vpath, "read");
    return true;
  } catch (err) {
    if (err instanceof ForbiddenError) return false;
    throw err;
  }
}

async function getRecord(deps: TrashDeps, req: TrashRequest, id: string): Promise<TrashRecord> {
  const r = await findTrashRecord(deps.kv, req.user.id, id);
  // A hidden origin answers like a missing item: the listing does not show it either.
  if (r === null || !await isOriginVisible(req.gate, r.vpath)) throw new NotFoundError("trash_item_missing");
  return r;
}

/** Options of {@link restoreTrashItem}, as the PATCH query of /api/resources spells them. */
export interface RestoreOptions {
  /** Replace what now stands at the origin (it goes to the trash in turn; needs `modify`). */
  override: boolean;
  /** Restore under a free `name(N)` instead. */
  rename: boolean;
}

/**
 * Puts an item back at its origin (missing parent folders are made). Needs `create`; an occupied origin is 409
 * unless `rename` or `override`. Runs the `restore` hooks with the restored path (a failing before hook changes
 * nothing). Returns the vpath it was restored to.
 */
export async function restoreTrashItem(
  deps: TrashDeps,
  req: TrashRequest,
  id: string,
  options: RestoreOptions,
): Promise<string> {
  const { gate, user } = req;
  assertPermission(user, "create");
  const r = await getRecord(deps, req, id);
  const src = `${itemDir(deps, r.id)}/${r.name}`;
  if (await lstatOrNull(serverPath(src)) === null) {
    await deleteTrashRecord(deps.kv, r);
    throw new NotFoundError("trash_item_missing");
  }
  let dst = await resolveScoped(gate, r.vpath, "create");
  let replace = false;
  if (dst.lstat !== null) {
    if (options.rename) dst = await freeName(gate, dst);
    else if (!options.override) {
      throw new ConflictError("exists", `Cannot restore "${r.vpath}": target exists`);
    } else {
      assertPermission(user, "modify");
      if (dst.lstat.isDirectory !== r.isDir) {
        throw new ConflictError(
          "kind_mismatch",
          `Cannot restore "${r.vpath}": a different kind of entry is there`,
        );
      }
      replace = true;
    }
  }
  const hook = { user, file: dst.path, destination: scopeDirOf(gate) };
  await req.hooks?.before("restore", hook);
  if (replace && dst.lstat !== null) {
    // What is replaced is not lost: it takes the restored item's place in the trash.
    if (isTrashEnabled(deps.config)) await moveToTrash(deps, user, dst);
    else {
      using entry = pinAt(dst);
      await remove(entry, { recursive: dst.lstat.isDirectory });
    }
    dst = await resolveScoped(gate, r.vpath, "create");
  }
  // Missing parents are made one at a time in pinned folders: a folder swapped for a link is refused (403).
  ensureDirBeneath(dst.confinement.anchor, vpathDir(dst.path), 0o777);
  await moveAnywhere(storePlace(src), entryPlace(dst));
  await forget(deps, r);
  await req.hooks?.after("restore", hook);
  return dst.vpath;
}

async function freeName(gate: GateContext, dst: ScopedPath): Promise<ScopedPath> {
  const dir = vpathDir(dst.vpath);
  const name = vpathBase(dst.vpath);
  for (let n = 1; n <= MAX_AUTO_NAMES; n++) {
    const candidate = await resolveScoped(gate, joinVpath(dir, numberedName(name, n)), "create");
    if (candidate.lstat === null) return candidate;
  }
  throw new ConflictError("no_free_name", `Cannot find a free name for "${dst.vpath}"`);
}

/** Removes one item for good (needs `delete`). */
export async function deleteTrashItem(deps: TrashDeps, req: TrashRequest, id: string): Promise<void> {
  assertPermission(req.user, "delete");
  await forget(deps, await getRecord(deps, req, id));
}

/** Removes every item of the user for good (needs `delete`); returns how many. */
export async function emptyTrash(deps: TrashDeps, user: StoredUser): Promise<number> {
  assertPermission(user, "delete");
  const records = await listTrashRecords(deps.kv, user.id);
  for (const r of records) await forget(deps, r);
  return records.length;
}

async function forget(deps: TrashDeps, r: TrashRecord): Promise<void> {
  await remove(serverPath(itemDir(deps, r.id)), { recursive: true }).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
  await deleteTrashRecord(deps.kv, r);
}

/**
 * Removes items older than `--trash-days` (all of them with 0), and trash folders that lost their record.
 * Call it periodically (main.ts wires a timer). Returns how many items went.
 */
export async function purgeTrash(deps: TrashDeps): Promise<number> {
  const now = deps.now();
  const maxAge = deps.config.trashDays * DAY_MS;
  const live = new Set<string>();
  let purged = 0;
  for await (const r of listAllTrashRecords(deps.kv)) {
    if (now - r.deletedAt < maxAge) {
      live.add(r.id);
      continue;
    }
    await forget(deps, r);
    purged++;
  }
  try {
    for await (const e of readDir(serverPath(trashDirOf(deps.config)))) {
      if (live.has(e.name) || !/^[0-9a-f-]{36}$/.test(e.name)) continue;
      const info = await lstatOrNull(serverPath(itemDir(deps, e.name)));
      if (!info || now - (info.mtime?.getTime() ?? now) < ORPHAN_AGE_MS) continue;
      // The record may be newer than the listing above (a deletion running now).
      if (await hasRecord(deps, e.name)) continue;
      await remove(serverPath(itemDir(deps, e.name)), { recursive: true });
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  if (purged) log.info(`trash: purged ${purged} items`);
  return purged;
}

async function hasRecord(deps: TrashDeps, id: string): Promise<boolean> {
  for await (const r of listAllTrashRecords(deps.kv)) if (r.id === id) return true;
  return false;
}
