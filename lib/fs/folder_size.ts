/**
 * Folder sizes on demand (docs/api.md#folder-sizes): a walk that sums the sizes of the files below a folder
 * and counts files and folders, as the user sees them (entries denied by rules or hidden as dot-files are not
 * counted; denied folders are still walked, since a deeper rule may allow what is inside). Symlinks count as
 * files of their own size and are never followed. A folder whose path is too long to address
 * (MAX_PATH_BYTES) is counted but not walked, and reported in `pathTooLong`. The walk yields to the event loop
 * regularly, reports progress and stops when its signal aborts.
 */
import type { FolderSize } from "../types.ts";
import { TEMP_PREFIX } from "./atomic.ts";
import { type DirStat, openDirStat } from "./dir_stat.ts";
import { pinObject, readDirSync } from "./floor.ts";
import { childVisibility, realVpathOf, type ScopedPath } from "./gate.ts";
import { joinVpath } from "./path.ts";
import { youngCollector } from "../young_gc.ts";
import { MAX_PATH_BYTES, utf8Length } from "../names.ts";

/** Options of {@link measureFolder}. */
export interface MeasureOptions {
  signal?: AbortSignal;
  /** Called with the totals so far, at most every `progressMs`. */
  onProgress?: (size: FolderSize) => void;
  /** Default 250. */
  progressMs?: number;
  /** Entries handled between two yields to the event loop (default 8192). */
  yieldEvery?: number;
}

/** Entries handled between two yields to the event loop (each yield costs a timer turn). */
const BATCH = 8192;

/**
 * Entries handled between two young-generation collections (lib/young_gc.ts): read directory entries, stat
 * results and paths die young, and a large folder makes tens of MiB of them.
 */
export const SIZE_GC_ENTRIES = 2048;

interface Pending {
  real: string;
  vpath: string;
  /** Where the folder really is when the walk base was reached through a symlink, else null. */
  realVpath: string | null;
}

/** Walks `dir` (a gate-checked folder) and returns its totals; a file is its own size. */
export async function measureFolder(dir: ScopedPath, options: MeasureOptions = {}): Promise<FolderSize> {
  const size: FolderSize = { bytes: 0, files: 0, folders: 0 };
  if (dir.stat === null) return size;
  if (!dir.stat.isDirectory) return { bytes: dir.stat.size, files: 1, folders: 0 };
  const conf = dir.confinement;
  const { signal, onProgress } = options;
  const progressMs = options.progressMs ?? 250;
  let lastProgress = Date.now();
  let sinceYield = 0;
  const collect = youngCollector(SIZE_GC_ENTRIES);
  const stack: Pending[] = [{ real: dir.real, vpath: dir.vpath, realVpath: realVpathOf(dir) }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    const vis = childVisibility(conf, at.vpath);
    if (vis.none) continue;
    const realVis = at.realVpath === null ? null : childVisibility(conf, at.realVpath);
    let entries: Deno.DirEntry[];
    let stat: DirStat;
    try {
      // Through the disk floor: a folder swapped for a link since it was listed is refused, not followed.
      using pin = pinObject(conf.anchor, at.real);
      entries = readDirSync(pin);
      stat = openDirStat({ anchor: conf.anchor, real: at.real });
    } catch {
      // Vanished, unreadable or swapped since it was listed: it contributes nothing.
      continue;
    }
    try {
      for (const e of entries) {
        collect(1);
        const name = e.name;
        if ((vis.hideDots && name.startsWith(".")) || name.startsWith(TEMP_PREFIX)) continue;
        const visible = (vis.allowed === null || vis.allowed(name)) &&
          (realVis === null || (!realVis.none && (realVis.allowed === null || realVis.allowed(name))));
        if (e.isDirectory) {
          if (visible) size.folders++;
          const child = at.real === "/" ? `/${name}` : `${at.real}/${name}`;
          // Too long to address (as the gate counts: ENAMETOOLONG by path): say so, not count it as empty.
          if (utf8Length(child, MAX_PATH_BYTES) > MAX_PATH_BYTES) {
            size.pathTooLong = (size.pathTooLong ?? 0) + 1;
            continue;
          }
          stack.push({
            real: child,
            vpath: joinVpath(at.vpath, name),
            realVpath: at.realVpath === null ? null : joinVpath(at.realVpath, name),
          });
        } else if (visible) {
          size.files++;
          size.bytes += stat.lstat(name)?.size ?? 0;
        }
      }
    } finally {
      stat.close();
    }
    sinceYield += entries.length + 1;
    if (sinceYield >= (options.yieldEvery ?? BATCH)) {
      sinceYield = 0;
      // Let other requests (and the client's disconnect) in.
      await new Promise((resolve) => setTimeout(resolve, 0));
      signal?.throwIfAborted();
      if (onProgress && Date.now() - lastProgress >= progressMs) {
        lastProgress = Date.now();
        onProgress({ ...size });
      }
    }
  }
  signal?.throwIfAborted();
  return size;
}
