/**
 * Disk side of the search index: reading folders into an {@link IndexTree}. `syncDirs` re-reads the given
 * folders (new sub-folders are read in full, vanished entries dropped), several at a time; `reconcile` stats
 * every indexed folder and re-reads only those whose mtime changed. Symlinks are recorded, never followed.
 * Children are kept in code point order of their names. Every folder is read through the disk floor
 * (lib/fs/floor.ts): pinned by its path beneath the indexed root without following a link, so a folder swapped
 * for a link since it was listed is not read (names from elsewhere never enter the index). A folder whose path
 * is too long to address (MAX_PATH_BYTES) is kept without children and named in `tooLong`, so searches can say
 * what they missed.
 */
import { pinObject, readDir, stat } from "../../fs/floor.ts";
import { youngCollector } from "../../young_gc.ts";
import { MAX_PATH_BYTES, utf8Length } from "../../names.ts";
import { ALIVE, DIR, type EntryKind, flagsOf, type IndexTree, KIND } from "./tree.ts";

/** A folder whose mtime is this close to the start of its read may change again unseen: read it next time. */
const RACY_MS = 2000;

/**
 * Entries read between two young-generation collections (lib/young_gc.ts): the directory entries of a read
 * are garbage once added to the tree, and a first walk of a large tree makes tens of MiB of them.
 */
export const WALK_GC_ENTRIES = 2048;

/** Folders read (or stat'ed) at the same time. */
const CONCURRENCY = 8;

/** How the walk reads: its pause, and the set that collects the folders too deep to read (relative paths). */
export interface WalkOptions {
  pause?: Pause;
  tooLong?: Set<string>;
}

/** A folder to read: its id and the path it had when queued (ids are reused, so it is checked again). */
export interface DirJob {
  id: number;
  rel: string;
}

/** The on-disk path of an entry. */
export function diskPath(root: string, rel: string): string {
  return rel === "" ? root : root === "/" ? `/${rel}` : `${root}/${rel}`;
}

/** True while `job` still names a live folder at the same path. */
function isCurrent(tree: IndexTree, job: DirJob): boolean {
  return (tree.flags[job.id] & (ALIVE | DIR)) === (ALIVE | DIR) && tree.pathOf(job.id) === job.rel;
}

/**
 * Lets requests go first: null when background work may go on at once, else a promise of when it may (see
 * lib/request_activity.ts).
 */
export type Pause = () => Promise<void> | null;

/**
 * Runs `work` over a queue that may grow while it runs, `CONCURRENCY` items at a time; before each item it
 * asks `pause` and, while that holds, starts nothing new (items already started finish).
 */
function drain<T>(queue: T[], work: (item: T) => Promise<void>, pause?: Pause): Promise<void> {
  return new Promise((resolve, reject) => {
    let active = 0;
    let held = false;
    const next = () => {
      while (!held && active < CONCURRENCY && queue.length) {
        const wait = pause?.();
        if (wait) {
          held = true;
          wait.then(() => {
            held = false;
            next();
          }, reject);
          return;
        }
        const item = queue.pop()!;
        active++;
        work(item).then(() => {
          active--;
          next();
        }, reject);
      }
      if (!held && active === 0 && queue.length === 0) resolve();
    };
    next();
  });
}

/** Reads the folder `rel` of the indexed root (`root`, a real path: the floor's anchor); null when it cannot. */
async function readFolder(
  root: string,
  rel: string,
  collect: (entries: number) => void,
  pause?: Pause,
): Promise<{ mtime: number; entries: Deno.DirEntry[] } | null> {
  try {
    const started = Date.now();
    using folder = pinObject(root, diskPath(root, rel));
    const st = await stat(folder);
    const entries: Deno.DirEntry[] = [];
    for await (const e of readDir(folder)) {
      collect(1);
      // A big folder takes many turns of the loop: a request that arrives meanwhile goes first.
      if ((entries.push(e) & 1023) === 0) await pause?.();
    }
    const m = st.mtime?.getTime() ?? NaN;
    return { mtime: started - m < RACY_MS ? NaN : m, entries };
  } catch {
    return null;
  }
}

function sameKind(tree: IndexTree, id: number, kind: EntryKind): boolean {
  return (tree.flags[id] & KIND) === flagsOf(kind);
}

/**
 * Reads the folders of `jobs` again and brings their children in line with the disk; folders that appear
 * are read in full. A folder that cannot be read (or is no longer reached from `root`, a real path, without a
 * link) loses its children and is tried again by the next reconcile.
 */
export async function syncDirs(
  tree: IndexTree,
  root: string,
  jobs: DirJob[],
  options: WalkOptions = {},
): Promise<void> {
  const queue = [...jobs];
  const collect = youngCollector(WALK_GC_ENTRIES);
  await drain(queue, async (job) => {
    if (!isCurrent(tree, job)) return;
    // Too long to address (as the gate counts: ENAMETOOLONG by path): known as such, not as an empty folder.
    const tooLong = utf8Length(diskPath(root, job.rel), MAX_PATH_BYTES) > MAX_PATH_BYTES;
    if (tooLong) options.tooLong?.add(job.rel);
    else options.tooLong?.delete(job.rel);
    const read = tooLong ? null : await readFolder(root, job.rel, collect, options.pause);
    // Bringing a big folder in line takes milliseconds of this thread.
    await options.pause?.();
    if (!isCurrent(tree, job)) return;
    if (read === null) {
      tree.prune(job.id, () => true);
      tree.mtime[job.id] = NaN;
      return;
    }
    tree.mtime[job.id] = read.mtime;
    const existing = tree.children(job.id);
    const seen = new Set<number>();
    let added = false;
    for (const e of read.entries) {
      collect(1);
      const old = existing.get(e.name);
      if (old !== undefined && sameKind(tree, old, e)) {
        seen.add(old);
        continue;
      }
      const id = tree.add(job.id, e.name, e);
      seen.add(id);
      added = true;
      if (e.isDirectory) queue.push({ id, rel: job.rel === "" ? e.name : `${job.rel}/${e.name}` });
    }
    tree.prune(job.id, (id) => !seen.has(id));
    // Siblings stay in name order, so queries stream hits in order without sorting them.
    if (added) tree.sortChildren(job.id);
  }, options.pause);
}

/** Stats every indexed folder and re-reads those whose mtime changed (or is unknown). Returns how many. */
export async function reconcile(
  tree: IndexTree,
  root: string,
  options: WalkOptions = {},
): Promise<number> {
  const candidates: DirJob[] = [];
  for (let id = 0; id < tree.size; id++) {
    if ((tree.flags[id] & (ALIVE | DIR)) === (ALIVE | DIR)) candidates.push({ id, rel: tree.pathOf(id) });
  }
  const changed: DirJob[] = [];
  await drain(candidates, async (job) => {
    const known = tree.mtime[job.id];
    if (Number.isNaN(known)) {
      changed.push(job);
      return;
    }
    try {
      using folder = pinObject(root, diskPath(root, job.rel));
      const st = await stat(folder);
      if (st.mtime?.getTime() !== known || !st.isDirectory) changed.push(job);
    } catch {
      changed.push(job);
    }
  }, options.pause);
  // Parents first, so a vanished folder is dropped before anyone tries to read it.
  changed.sort((a, b) => b.rel.length - a.rel.length);
  await syncDirs(tree, root, changed, options);
  return changed.length;
}
