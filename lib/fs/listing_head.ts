/**
 * The first screen of a folder for the files page's server render: the folder as GET /api/resources answers
 * it (same snapshot, same cache, same user sorting, same rules), but with only its first `limit` items in the
 * page's display order (folders first; by name when sorting by size, as client/display_order.ts shows them)
 * and the totals of the whole folder in `numDirs`/`numFiles`. Only the items shown are decoded.
 */
import { HttpError } from "../errors.ts";
import type { Resource, Sorting } from "../types.ts";
import { childVisibility, type GateContext, realVpathOf, resolveScoped } from "./gate.ts";
import type { ListingCache } from "./listing_cache.ts";
import { type LinkItem, placeLinks, resolveLinks, visibleEntries } from "./listing_json.ts";
import { type DirSnapshot, KIND_DIR, orderOf, scanDirectory } from "./listing_snapshot.ts";
import { describe } from "./resources.ts";
import { compareNatural } from "./sort.ts";

/** Options of {@link findListingHead}. */
export interface ListingHeadOptions {
  /** The user's listing order. */
  sorting: Sorting;
  /** config.typeDetectionByHeader. */
  readHeaders: boolean;
  /** Most items returned. */
  limit: number;
  /** Directory snapshots shared with the API (AppDeps.listings); none = read the directory. */
  listings?: ListingCache;
  signal?: AbortSignal;
}

/** One visible entry: where its JSON comes from. */
type Entry = { index: number; link?: undefined } | { index: number; link: LinkItem };

const decoder = new TextDecoder();

/**
 * The folder at `vpath` with its first `limit` items in display order, or null when the path is not a folder
 * the user may list (missing, forbidden, a file): the page then loads it the ordinary way and shows what the
 * API says, exactly as without a first screen.
 */
export async function findListingHead(
  ctx: GateContext,
  vpath: string,
  options: ListingHeadOptions,
): Promise<Resource | null> {
  let dir;
  try {
    dir = await resolveScoped(ctx, vpath, "read");
  } catch (err) {
    // A client error (403, 404, a bad path) is the API's to report, on the page's own request.
    if (err instanceof HttpError && err.status < 500) return null;
    throw err;
  }
  if (dir.lstat === null || dir.stat === null || !dir.stat.isDirectory) return null;
  const self = describe(dir, { canModify: ctx.user.perm.modify });
  const snapshotOptions = { readHeaders: options.readHeaders, signal: options.signal };
  const snap = options.listings
    ? await options.listings.snapshot(dir, snapshotOptions)
    : await scanDirectory({ real: dir.real, anchor: dir.confinement.anchor }, snapshotOptions);
  const links = snap.linkCount > 0 ? await resolveLinks(dir, snap, options.readHeaders) : [];
  const order = orderOf(snap, options.sorting);
  if (links.length > 0) placeLinks(snap, order, links, options.sorting);
  const realBase = realVpathOf(dir);
  const visible = visibleEntries(
    snap,
    childVisibility(dir.confinement, dir.vpath),
    realBase === null ? null : childVisibility(dir.confinement, realBase),
  );
  // The API's order, split into folders and files; all folders are kept when they must be re-sorted by name.
  const byName = options.sorting.by === "size";
  const dirs: Entry[] = [], files: Entry[] = [];
  let numDirs = 0, numFiles = 0, l = 0;
  const add = (entry: Entry, isDir: boolean) => {
    if (isDir) {
      if (byName || numDirs < options.limit) dirs.push(entry);
      numDirs++;
    } else {
      if (numFiles < options.limit) files.push(entry);
      numFiles++;
    }
  };
  for (let k = 0; k <= order.length; k++) {
    while (l < links.length && links[l].at === k) {
      add({ index: links[l].index, link: links[l] }, links[l].facts.isDir);
      l++;
    }
    if (k === order.length) break;
    const i = order[k];
    if (visible[i]) add({ index: i }, snap.kinds[i] === KIND_DIR);
  }
  if (byName && dirs.length > 1) {
    const lower = new Map(dirs.map((e) => [e, snap.names[e.index].toLowerCase()]));
    dirs.sort((x, y) => compareNatural(lower.get(x)!, lower.get(y)!));
  }
  const shown = dirs.slice(0, options.limit);
  for (const f of files) if (shown.length < options.limit) shown.push(f);
  const prefix = `{"path":${JSON.stringify(dir.vpath === "/" ? "/" : dir.vpath + "/").slice(0, -1)}`;
  return {
    ...self,
    items: shown.map((e) => itemOf(snap, e, prefix)),
    numDirs,
    numFiles,
    sorting: { by: options.sorting.by, asc: options.sorting.asc },
  };
}

function itemOf(snap: DirSnapshot, entry: Entry, prefix: string): Resource {
  if (entry.link) return JSON.parse(decoder.decode(entry.link.json));
  const i = entry.index;
  const fragment = snap.replaced.get(i) ?? snap.fragments.subarray(snap.offsets[i], snap.offsets[i + 1]);
  return JSON.parse(prefix + decoder.decode(fragment));
}
