/**
 * A directory listing as the JSON of GET /api/resources, built from a {@link DirSnapshot} for one request:
 * the user's rules and dot-file hiding filter the snapshot's entries (no disk access), symlinks are resolved
 * through the gate now, and the items' UTF-8 is copied from the snapshot's fragment buffer. The bytes are
 * exactly those of `JSON.stringify(listDirectory(...))`.
 */
import type { Resource, Sorting } from "../types.ts";
import { resourceFields } from "./file_info.ts";
import { type ChildVisibility, childVisibility, realVpathOf, scopedChild, type ScopedPath } from "./gate.ts";
import { readHeadSync } from "./listing.ts";
import { type DirSnapshot, factsOf, KIND_DIR, KIND_LINK, orderOf } from "./listing_snapshot.ts";
import { hasKnownExtension } from "./mime.ts";
import { joinVpath } from "./path.ts";
import { comparatorFor, type SortFacts } from "./sort.ts";

const encoder = new TextEncoder();

/** Options of {@link renderListing}. */
export interface RenderOptions {
  sorting: Sorting;
  /** Sniff link targets whose extension is unknown (config.typeDetectionByHeader). */
  readHeaders: boolean;
}

/** A symlink entry resolved for this request. */
interface LinkItem {
  index: number;
  facts: SortFacts;
  json: Uint8Array;
  /** Position in the non-link order before which it goes. */
  at: number;
}

async function resolveLinks(dir: ScopedPath, snap: DirSnapshot, readHeaders: boolean): Promise<LinkItem[]> {
  const links: LinkItem[] = [];
  for (let i = 0; i < snap.names.length; i++) {
    if (snap.kinds[i] !== KIND_LINK) continue;
    const name = snap.names[i];
    const child = await scopedChild(dir, name);
    if (child === null || child.lstat === null) continue;
    const stat = child.stat;
    const head = readHeaders && stat?.isFile && stat.size > 0 && !hasKnownExtension(name)
      ? readHeadSync(child.real)
      : undefined;
    const resource = resourceFields({
      path: joinVpath(dir.vpath, name),
      name,
      lstat: child.lstat,
      stat,
      linkOwnTimes: false,
      canModify: true,
      head,
    });
    links.push({
      index: i,
      facts: {
        name,
        isDir: resource.isDir,
        size: resource.size,
        mtimeMs: (stat ?? child.lstat).mtime?.getTime() ?? 0,
      },
      json: encoder.encode(JSON.stringify(resource)),
      at: 0,
    });
  }
  return links;
}

/**
 * Places resolved links among the ordered non-link entries: each goes before the first entry that a stable
 * sort of read order would put after it (ties broken by read position).
 */
function placeLinks(snap: DirSnapshot, order: Uint32Array, links: LinkItem[], sorting: Sorting): void {
  const compare = comparatorFor(sorting);
  const after = (a: SortFacts, ai: number, b: SortFacts, bi: number) => {
    const c = compare(a, b);
    return c > 0 || (c === 0 && ai > bi);
  };
  links.sort((x, y) => compare(x.facts, y.facts) || x.index - y.index);
  for (const link of links) {
    let lo = 0, hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (after(factsOf(snap, order[mid]), order[mid], link.facts, link.index)) hi = mid;
      else lo = mid + 1;
    }
    link.at = lo;
  }
}

/** Marks (1) the non-link entries that pass `v` (and `there`, for folders reached through a link). */
function visibleEntries(snap: DirSnapshot, v: ChildVisibility, there: ChildVisibility | null): Uint8Array {
  const n = snap.names.length;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = snap.kinds[i] === KIND_LINK ? 0 : 1;
  // In read order, the order the names were allocated in: scattered reads are slow on big folders.
  for (const c of there === null ? [v] : [v, there]) {
    if (c.none) return out.fill(0);
    if (c.hideDots) { for (let i = 0; i < n; i++) out[i] &= snap.dots[i] ^ 1; }
    const allowed = c.allowed;
    if (allowed !== null) { for (let i = 0; i < n; i++) if (out[i] && !allowed(snap.names[i])) out[i] = 0; }
  }
  return out;
}

/** The listing JSON (UTF-8) of `dir`, already checked by the gate, with its own fields `self`. */
export async function renderListing(
  dir: ScopedPath,
  self: Resource,
  snap: DirSnapshot,
  options: RenderOptions,
): Promise<Uint8Array<ArrayBuffer>> {
  const links = snap.linkCount > 0 ? await resolveLinks(dir, snap, options.readHeaders) : [];
  const order = orderOf(snap, options.sorting);
  if (links.length > 0) placeLinks(snap, order, links, options.sorting);
  const conf = dir.confinement;
  // A folder reached through a symlink: its children must also pass the rules where they really are.
  const realBase = realVpathOf(dir);
  const visible = visibleEntries(
    snap,
    childVisibility(conf, dir.vpath),
    realBase === null ? null : childVisibility(conf, realBase),
  );
  const { fragments, offsets, replaced } = snap;
  // Every item starts with its directory's path part: `{"path":"/dir/`.
  const head = encoder.encode(
    `{"path":${JSON.stringify(dir.vpath === "/" ? "/" : dir.vpath + "/").slice(0, -1)}`,
  );
  let count = 0, numDirs = 0, size = 0;
  for (const link of links) {
    count++;
    if (link.facts.isDir) numDirs++;
    size += link.json.length;
  }
  for (let i = 0; i < visible.length; i++) {
    if (!visible[i]) continue;
    count++;
    if (snap.kinds[i] === KIND_DIR) numDirs++;
    size += head.length + (replaced.get(i)?.length ?? offsets[i + 1] - offsets[i]);
  }
  const sorting = JSON.stringify({ by: options.sorting.by, asc: options.sorting.asc });
  const start = encoder.encode(`{"items":[`);
  const end = encoder.encode(
    `],"numDirs":${numDirs},"numFiles":${count - numDirs},"sorting":${sorting},${
      JSON.stringify(self).slice(1)
    }`,
  );
  const out = new Uint8Array(start.length + size + Math.max(count - 1, 0) + end.length);
  out.set(start);
  let pos = start.length;
  let l = 0;
  const comma = () => {
    if (pos > start.length) out[pos++] = 44; // ","
  };
  for (let k = 0; k <= order.length; k++) {
    while (l < links.length && links[l].at === k) {
      const json = links[l++].json;
      comma();
      out.set(json, pos);
      pos += json.length;
    }
    if (k === order.length) break;
    const i = order[k];
    if (!visible[i]) continue;
    comma();
    out.set(head, pos);
    pos += head.length;
    if (replaced.size > 0 && replaced.has(i)) {
      const f = replaced.get(i)!;
      out.set(f, pos);
      pos += f.length;
    } else {
      const a = offsets[i], b = offsets[i + 1];
      out.set(fragments.subarray(a, b), pos);
      pos += b - a;
    }
  }
  out.set(end, pos);
  return out;
}
