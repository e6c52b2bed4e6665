/**
 * Tests only: the plain listing, one Resource object per entry, that the fast pipeline (listing_snapshot.ts,
 * listing_json.ts behind getResourceJson) must match byte for byte. Kept simple on purpose: it is the oracle.
 */
import { serverPath } from "./floor.ts";
import type { Resource, Sorting } from "../types.ts";
import { TEMP_PREFIX } from "./atomic.ts";
import { readHeadOf, readHeadSync, resourceFields } from "./file_info.ts";
import {
  type GateContext,
  isVisible,
  realVpathOf,
  resolveScoped,
  scopedChild,
  type ScopedPath,
} from "./gate.ts";
import { hasKnownExtension } from "./mime.ts";
import { joinVpath } from "./path.ts";
import { describe } from "./resources.ts";
import { type SortableItem, sortItems } from "./sort.ts";

/** Entries handled per synchronous chunk before yielding to other requests. */
const CHUNK = 5000;

/** Options of {@link listDirectory}. */
export interface ListOptions {
  sorting: Sorting;
  /** Sniff the first bytes of files whose extension is unknown (config.typeDetectionByHeader). */
  readHeaders: boolean;
  /** Stops a long listing when the client went away. */
  signal?: AbortSignal;
}

function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function needsHeader(name: string, info: Deno.FileInfo, options: ListOptions): boolean {
  return options.readHeaders && info.isFile && info.size > 0 && !hasKnownExtension(name);
}

/** The items of a directory that this confinement may see (escaping links and unreadable entries left out). */
export async function listItems(dir: ScopedPath, options: ListOptions): Promise<SortableItem[]> {
  const conf = dir.confinement;
  // A folder reached through a symlink: its children must also pass the rules where they really are.
  const realBase = realVpathOf(dir);
  const names: { name: string; isSymlink: boolean }[] = [];
  for (const e of Deno.readDirSync(dir.real)) names.push({ name: e.name, isSymlink: e.isSymlink });
  const items: SortableItem[] = [];
  for (let start = 0; start < names.length; start += CHUNK) {
    if (start > 0) {
      await yieldToLoop();
      options.signal?.throwIfAborted();
    }
    for (const { name, isSymlink } of names.slice(start, start + CHUNK)) {
      const vpath = joinVpath(dir.vpath, name);
      if (isSymlink) {
        const child = await scopedChild(dir, name);
        if (child === null || child.lstat === null) continue;
        const head = child.stat && needsHeader(name, child.stat, options) ? readHeadOf(child) : undefined;
        items.push({
          resource: resourceFields({
            path: vpath,
            name,
            lstat: child.lstat,
            stat: child.stat,
            linkOwnTimes: false,
            canModify: true,
            head,
          }),
          mtimeMs: (child.stat ?? child.lstat).mtime?.getTime() ?? 0,
        });
        continue;
      }
      // Our own in-flight temp files (atomic writes) are not user content.
      if (name.startsWith(TEMP_PREFIX) || !isVisible(conf, vpath)) continue;
      if (realBase !== null && !isVisible(conf, joinVpath(realBase, name))) continue;
      const path = dir.real === "/" ? `/${name}` : `${dir.real}/${name}`;
      let info: Deno.FileInfo;
      try {
        info = Deno.lstatSync(path);
      } catch {
        // Entries that cannot be stat'ed (vanished, broken mounts) are left out.
        continue;
      }
      const head = needsHeader(name, info, options) ? readHeadSync(serverPath(path)) : undefined;
      items.push({
        resource: resourceFields({
          path: vpath,
          name,
          lstat: info,
          stat: info,
          linkOwnTimes: false,
          canModify: true,
          head,
        }),
        mtimeMs: info.mtime?.getTime() ?? 0,
      });
    }
  }
  return items;
}

/** A directory as a Resource with sorted `items`, `numDirs`, `numFiles` and `sorting` first (as upstream). */
export async function listDirectory(
  dir: ScopedPath,
  self: Resource,
  options: ListOptions,
): Promise<Resource> {
  const items = await listItems(dir, options);
  sortItems(items, options.sorting);
  let numDirs = 0;
  for (const it of items) if (it.resource.isDir) numDirs++;
  return {
    items: items.map((it) => it.resource),
    numDirs,
    numFiles: items.length - numDirs,
    sorting: { by: options.sorting.by, asc: options.sorting.asc },
    ...self,
  };
}

/** The answer of GET /api/resources for a folder, built the plain way. */
export async function referenceListing(
  ctx: GateContext,
  vpath: string,
  options: ListOptions,
): Promise<Resource> {
  const p = await resolveScoped(ctx, vpath, "read");
  return await listDirectory(p, describe(p, { canModify: ctx.user.perm.modify }), options);
}
