/**
 * GET /api/search (docs/api.md): the matching entries of the user's folder as NDJSON hits, from the filename
 * index once it is ready (lib/search/index/), else from a depth-first walk. Either way rules, dot-file hiding
 * and scope apply to every entry at query time; symlinks are never followed (escaping ones are not even
 * reported); entries that vanish or cannot be read are skipped; a client that goes away stops the search.
 */
import { NotFoundError } from "../errors.ts";
import { log } from "../log.ts";
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
import { matchesQuery, parseSearchQuery, type SearchQuery } from "./query.ts";
import type { IndexHit, SearchIndex } from "./index/mod.ts";

export { matchesQuery, parseSearchQuery, type SearchQuery } from "./query.ts";

/** Options of {@link searchFiles}. */
export interface SearchOptions {
  signal?: AbortSignal;
  /** The filename index of the server root; used once ready (and when it holds the folder). */
  index?: SearchIndex;
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
  const indexed = indexHits(options.index, base.real, query, conf.hideDotfiles);
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
}

/** Exactly `isVisible` of the child `name` of the folder `v` was prepared for. */
function sees(v: ChildVisibility, name: string): boolean {
  if (v.none || (v.hideDots && name.startsWith("."))) return false;
  return v.allowed === null || v.allowed(name);
}

/** The index's hits below the on-disk folder `real`, or null when the index cannot answer (not ready, elsewhere). */
function indexHits(
  index: SearchIndex | undefined,
  real: string,
  query: SearchQuery,
  skipDot: boolean,
): Iterable<IndexHit[]> | null {
  if (!index?.ready) return null;
  const root = index.realRoot;
  let rel: string;
  if (real === root) rel = "";
  else if (real.startsWith(root === "/" ? "/" : root + "/")) {
    rel = real.slice(root === "/" ? 1 : root.length + 1);
  } else return null;
  return index.query(rel, query, { skipDot });
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
    entries = await Array.fromAsync(Deno.readDir(at.dir));
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
      yield* walkDir(conf, { dir: `${at.dir}/${e.name}`, rel, vpath, realVpath }, query, options);
    }
  }
}

const DIR_LINE = '{"dir":true,"path":', FILE_LINE = '{"dir":false,"path":';

/** Delay before the single keep-alive empty line. */
export const KEEPALIVE_MS = 5000;

/**
 * The NDJSON body of a search: one `{"dir","path"}` line per hit, one empty line after 5 s if still running.
 * The base is checked first, so a bad one is an error status rather than an empty answer.
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
  const hits = searchBatches(ctx, base, query, { signal: abort.signal, index: options.index });
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
