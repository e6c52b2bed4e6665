/**
 * GET /api/search (docs/api.md): the matching entries of the user's folder as NDJSON hits, from the filename
 * index once it is ready (lib/search/index/), else from a depth-first walk. Either way rules, dot-file hiding
 * and scope apply to every entry at query time; symlinks are never followed (escaping ones are not even
 * reported); entries that vanish or cannot be read are skipped; a client that goes away stops the search.
 * The walk reads each folder through the disk floor (lib/fs/floor.ts): pinned by its real path beneath the files
 * root, so a folder swapped for a link since it was listed is skipped, never entered. Folders whose path is too
 * long to address (MAX_PATH_BYTES) are counted, and the answer ends with a line that says so.
 */
import { NotFoundError } from "../errors.ts";
import { log } from "../log.ts";
import { pinObject, readDir } from "../fs/floor.ts";
import {
  type ChildVisibility,
  childVisibility,
  type Confinement,
  type GateContext,
  isConfinedLink,
  isVisible,
  realVpathOf,
  resolveWalkBase,
  type ScopedPath,
} from "../fs/gate.ts";
import { joinVpath } from "../fs/path.ts";
import { compareBytes } from "../fs/sort.ts";
import type { SearchHit } from "../types.ts";
import { youngCollector } from "../young_gc.ts";
import { MAX_PATH_BYTES, utf8Length } from "../names.ts";
import { matchesQuery, parseSearchQuery, type SearchQuery } from "./query.ts";
import type { SearchIndex } from "./index/mod.ts";

export { matchesQuery, parseSearchQuery, type SearchQuery } from "./query.ts";

/** Options of {@link searchFiles}. */
export interface SearchOptions {
  signal?: AbortSignal;
  /** The filename index of the server root; used once ready (and when it holds the folder). */
  index?: SearchIndex;
  /** Counts the folders below that were not searched because their path is too long to be read. */
  truncation?: { pathTooLong: number };
}

/** Yields the matching entries below `vpath`, paths relative to the base. */
export async function* searchFiles(
  ctx: GateContext,
  vpath: string,
  query: SearchQuery,
  options: SearchOptions = {},
): AsyncGenerator<SearchHit> {
  for await (const batch of searchBatches(ctx, vpath, query, options)) yield* batch;
}

/**
 * Entries looked at (walk) or hits handled (index) between two young-generation collections
 * (lib/young_gc.ts): hit objects, paths and directory entries die young, tens of MiB over a 100k-entry tree.
 */
export const SEARCH_GC_ENTRIES = 2048;

/**
 * The folder a search starts from, checked like any requested path: a NUL byte or an overlong name is 400, a
 * path leaving the scope 403, a missing one 404. The base itself is not rule-checked (upstream).
 */
export async function resolveSearchBase(ctx: GateContext, vpath: string): Promise<ScopedPath> {
  const base = await resolveWalkBase(ctx, vpath);
  if (base.lstat === null || base.stat === null) throw new NotFoundError();
  return base;
}

/** {@link searchFiles} in batches: a few hundred hits at a time from the index, one at a time from a walk. */
async function* searchBatches(
  ctx: GateContext,
  vpath: string | ScopedPath,
  query: SearchQuery,
  options: SearchOptions,
): AsyncGenerator<SearchHit[]> {
  let base: ScopedPath;
  if (typeof vpath !== "string") base = vpath;
  else {
    try {
      // Called without a checked base (searchFiles): a missing or inaccessible base yields no hits.
      base = await resolveSearchBase(ctx, vpath);
    } catch (err) {
      log.debug(`search: base "${vpath}" unavailable`, err);
      return;
    }
  }
  // A file has nothing below it.
  if (!base.stat?.isDirectory) return;
  const realBase = realVpathOf(base) ?? base.vpath;
  const conf = base.confinement;
  const rel = indexRel(options.index, base.real);
  const indexed = rel === null ? null : options.index!.query(rel, query, { skipDot: conf.hideDotfiles });
  const collect = youngCollector(SEARCH_GC_ENTRIES);
  if (!indexed) {
    const at = { dir: base.real, rel: "", vpath: base.vpath, realVpath: realBase };
    for await (const hit of walkDir(conf, at, query, { ...options, collect })) yield [hit];
    return;
  }
  // Rules and hiding are prepared once per folder (hits come grouped by folder), then cost a call per hit.
  const under = (root: string, dir: string) => (dir === "" ? root : joinVpath(root, dir));
  let parent: string | null = null;
  let vis: ChildVisibility = childVisibility(conf, base.vpath), realVis: ChildVisibility | null = null;
  for (const hits of indexed) {
    collect(hits.length);
    const batch: SearchHit[] = [];
    for (const hit of hits) {
      if (hit.parent !== parent) {
        parent = hit.parent;
        vis = childVisibility(conf, under(base.vpath, parent));
        if (realBase !== base.vpath) realVis = childVisibility(conf, under(realBase, parent));
      }
      if (!sees(vis, hit.name) || (realVis !== null && !sees(realVis, hit.name))) continue;
      const rel = parent === "" ? hit.name : `${parent}/${hit.name}`;
      if (hit.link && !await isConfinedLink(conf, joinVpath(base.vpath, rel))) continue;
      batch.push({ dir: hit.dir, path: rel });
    }
    options.signal?.throwIfAborted();
    if (batch.length) yield batch;
  }
  if (options.truncation) {
    // Hidden folders are not searched at all (the walk prunes them), so their length does not matter.
    const missed = options.index!.tooLongBelow(rel!).filter((r) => !conf.hideDotfiles || !/(^|\/)\./.test(r));
    options.truncation.pathTooLong += missed.length;
  }
}

/** Exactly `isVisible` of the child `name` of the folder `v` was prepared for. */
function sees(v: ChildVisibility, name: string): boolean {
  if (v.none || (v.hideDots && name.startsWith("."))) return false;
  return v.allowed === null || v.allowed(name);
}

/** The on-disk folder `real` relative to the index's root; null when the index cannot answer (not ready, elsewhere). */
function indexRel(index: SearchIndex | undefined, real: string): string | null {
  if (!index?.ready) return null;
  const root = index.realRoot;
  if (real === root) return "";
  if (real.startsWith(root === "/" ? "/" : root + "/")) return real.slice(root === "/" ? 1 : root.length + 1);
  return null;
}

async function* walkDir(
  conf: Confinement,
  /** `realVpath`: where `dir` really is (differs from `vpath` when the base was reached through a link). */
  at: { dir: string; rel: string; vpath: string; realVpath: string },
  query: SearchQuery,
  options: SearchOptions & { collect: (entries: number) => void },
): AsyncGenerator<SearchHit> {
  let entries: Deno.DirEntry[];
  try {
    using folder = pinObject(conf.anchor, at.dir);
    entries = await Array.fromAsync(readDir(folder));
  } catch {
    return;
  }
  entries.sort((a, b) => compareBytes(a.name, b.name));
  for (const e of entries) {
    options.signal?.throwIfAborted();
    options.collect(1);
    // A hidden folder hides everything below it: prune instead of walking.
    if (conf.hideDotfiles && e.name.startsWith(".")) continue;
    const vpath = joinVpath(at.vpath, e.name);
    const realVpath = joinVpath(at.realVpath, e.name);
    const rel = at.rel ? `${at.rel}/${e.name}` : e.name;
    const visible = isVisible(conf, vpath) && (realVpath === vpath || isVisible(conf, realVpath));
    if (visible && matchesQuery(query, e.name)) {
      // Symlinks are never followed, and reported only while they stay inside the scope.
      if (!e.isSymlink || await isConfinedLink(conf, vpath)) yield { dir: e.isDirectory, path: rel };
    }
    // Denied folders are still walked: a deeper allow rule can make their children visible.
    if (e.isDirectory) {
      const dir = `${at.dir}/${e.name}`;
      // Too long to address (as the gate counts: ENAMETOOLONG by path): counted, so the answer says what it missed.
      if (utf8Length(dir, MAX_PATH_BYTES) > MAX_PATH_BYTES) {
        if (options.truncation) options.truncation.pathTooLong++;
        continue;
      }
      yield* walkDir(conf, { dir, rel, vpath, realVpath }, query, options);
    }
  }
}

const DIR_LINE = '{"dir":true,"path":', FILE_LINE = '{"dir":false,"path":';

/** Delay before the single keep-alive empty line. */
export const KEEPALIVE_MS = 5000;

/**
 * The NDJSON body of a search: one `{"dir","path"}` line per hit, one empty line after 5 s if still running, and
 * at the end `{"truncated":"path_too_long","folders":N}` when N folders below were not searched because their
 * path is too long to be read. The base is checked first, so a bad one is an error status rather than an empty
 * answer.
 */
export async function searchStream(
  ctx: GateContext,
  vpath: string,
  rawQuery: string,
  options: SearchOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const query = parseSearchQuery(rawQuery);
  const base = await resolveSearchBase(ctx, vpath);
  const enc = new TextEncoder();
  const abort = new AbortController();
  options.signal?.addEventListener("abort", () => abort.abort(), { once: true });
  const truncation = { pathTooLong: 0 };
  const hits = searchBatches(ctx, base, query, { signal: abort.signal, index: options.index, truncation });
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setTimeout(() => {
        try {
          controller.enqueue(enc.encode("\n"));
        } catch {
          // Stream already closed.
        }
      }, KEEPALIVE_MS);
    },
    async pull(controller) {
      try {
        const next = await hits.next();
        if (next.done) {
          clearTimeout(timer);
          if (truncation.pathTooLong > 0) {
            controller.enqueue(
              enc.encode(`{"truncated":"path_too_long","folders":${truncation.pathTooLong}}\n`),
            );
          }
          controller.close();
          return;
        }
        let text = "";
        // The same bytes as JSON.stringify(hit), without building an object per line.
        for (const hit of next.value) {
          text += (hit.dir ? DIR_LINE : FILE_LINE) + JSON.stringify(hit.path) + "}\n";
        }
        controller.enqueue(enc.encode(text));
      } catch (err) {
        clearTimeout(timer);
        if (abort.signal.aborted) controller.close();
        else controller.error(err);
      }
    },
    async cancel() {
      clearTimeout(timer);
      abort.abort();
      await hits.return(undefined);
    },
  });
}
