/** GET /api/resources/recursive (docs/api.md#resources): a flat pre-order listing of a subtree. */
import { lstat, pinEntry, pinObject, readDirNames } from "./floor.ts";
import { BadRequestError, ForbiddenError, NotFoundError } from "../errors.ts";
import { formatModified } from "./file_info.ts";
import {
  type Confinement,
  type GateContext,
  isVisible,
  realVpathOf,
  resolveScoped,
  resolveWalkBase,
} from "./gate.ts";
import { joinVpath } from "./path.ts";
import { compareBytes } from "./sort.ts";

/** One entry of the recursive listing (lstat-based: a symlink to a folder has `isDir: false`). */
export interface RecursiveEntry {
  path: string;
  name: string;
  size: number;
  modified: string;
  isDir: boolean;
}

/** Most entries returned, so one request cannot build an unbounded array in memory. */
const MAX_RECURSIVE_ENTRIES = 1_000_000;

/**
 * Whether a symlink may be listed: as in a folder listing, only when it resolves inside the scope to a place the
 * rules and dot-file hiding let the user see (`link -> .secret` would otherwise show where hidden things are).
 */
async function isListableLink(ctx: GateContext, vpath: string): Promise<boolean> {
  try {
    await resolveScoped(ctx, vpath, "read");
    return true;
  } catch (err) {
    if (err instanceof ForbiddenError || err instanceof NotFoundError) return false;
    throw err;
  }
}

async function walk(
  ctx: GateContext,
  conf: Confinement,
  at: { dir: string; vpath: string; realVpath: string },
  out: RecursiveEntry[],
  signal?: AbortSignal,
): Promise<void> {
  const { dir, vpath } = at;
  let names: string[];
  try {
    using folder = pinObject(conf.anchor, dir);
    names = await readDirNames(folder);
  } catch {
    return;
  }
  names.sort(compareBytes);
  for (const name of names) {
    signal?.throwIfAborted();
    if (out.length >= MAX_RECURSIVE_ENTRIES) return;
    const childVpath = joinVpath(vpath, name);
    // Denied (or hidden) entries are skipped and a denied folder's subtree is pruned.
    const realVpath = joinVpath(at.realVpath, name);
    if (!isVisible(conf, childVpath) || (realVpath !== childVpath && !isVisible(conf, realVpath))) continue;
    let info: Deno.FileInfo;
    try {
      using entry = pinEntry(conf.anchor, `${dir}/${name}`);
      info = await lstat(entry);
    } catch {
      continue;
    }
    if (info.isSymlink && !await isListableLink(ctx, childVpath)) continue;
    out.push({
      path: childVpath,
      name,
      size: info.size,
      modified: formatModified(info.mtime),
      isDir: info.isDirectory,
    });
    if (info.isDirectory) {
      await walk(ctx, conf, { dir: `${dir}/${name}`, vpath: childVpath, realVpath }, out, signal);
    }
  }
}

/**
 * Lists everything below a folder. The folder itself is not rule-checked (only confined: 403 on escape, 404
 * when missing, 400 when not a folder); entries below it are.
 */
export async function listRecursive(
  ctx: GateContext,
  vpath: string,
  options: { signal?: AbortSignal } = {},
): Promise<RecursiveEntry[]> {
  const base = await resolveWalkBase(ctx, vpath);
  if (base.lstat === null || base.stat === null) throw new NotFoundError();
  if (!base.stat.isDirectory) {
    throw new BadRequestError("path is not a directory", { code: "not_a_directory" });
  }
  const out: RecursiveEntry[] = [];
  const at = { dir: base.real, vpath: base.vpath, realVpath: realVpathOf(base) ?? base.vpath };
  await walk(ctx, base.confinement, at, out, options.signal);
  return out;
}
