/**
 * A directory listing as the JSON of GET /api/resources, built from a {@link DirSnapshot} for one request:
 * the user's rules and dot-file hiding filter the snapshot's entries (no disk access), symlinks are resolved
 * through the gate now, and the items' UTF-8 is copied from the snapshot's fragment buffer. The bytes are
 * exactly those of the plain listing the tests hold it to (`_listing_reference.ts`).
 */
import type { Resource, Sorting } from "../types.ts";
import { readHeadOf, resourceFields } from "./file_info.ts";
import { type ChildVisibility, childVisibility, realVpathOf, scopedChild, type ScopedPath } from "./gate.ts";
import {
  type DirSnapshot,
  factsOf,
  KIND_DIR,
  KIND_LINK,
  orderOf,
  type RenderedItems,
} from "./listing_snapshot.ts";
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
export interface LinkItem {
  index: number;
  facts: SortFacts;
  json: Uint8Array;
  /** Position in the non-link order before which it goes. */
  at: number;
}

/** Resolves the symlinks of a snapshot through the gate, for one request. */
export async function resolveLinks(
  dir: ScopedPath,
  snap: DirSnapshot,
  readHeaders: boolean,
): Promise<LinkItem[]> {
  const links: LinkItem[] = [];
  for (let i = 0; i < snap.names.length; i++) {
    if (snap.kinds[i] !== KIND_LINK) continue;
    const name = snap.names[i];
    const child = await scopedChild(dir, name);
    if (child === null || child.lstat === null) continue;
    const stat = child.stat;
    const head = readHeaders && stat?.isFile && stat.size > 0 && !hasKnownExtension(name)
      ? readHeadOf(child)
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
export function placeLinks(snap: DirSnapshot, order: Uint32Array, links: LinkItem[], sorting: Sorting): void {
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
export function visibleEntries(
  snap: DirSnapshot,
  v: ChildVisibility,
  there: ChildVisibility | null,
): Uint8Array {
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

/** Size of the chunks a listing is written in (each allocated at its final size: the total is known). */
const CHUNK_BYTES = 256 * 1024;
/** Encoded views (sorting × rules) kept per snapshot: each costs about as much as the snapshot's fragments. */
export const MAX_RENDERED_VIEWS = 2;
const START = encoder.encode(`{"items":[`);

/** Copies bytes into chunks of at most CHUNK_BYTES, for a total counted beforehand. */
class ChunkWriter {
  readonly chunks: Uint8Array<ArrayBuffer>[] = [];
  #buf = new Uint8Array(0);
  #pos = 0;
  #left: number;

  constructor(total: number) {
    this.#left = total;
  }

  write(bytes: Uint8Array): void {
    let at = 0;
    while (at < bytes.length) {
      if (this.#pos === this.#buf.length) this.#next();
      const n = Math.min(bytes.length - at, this.#buf.length - this.#pos);
      this.#buf.set(n === bytes.length ? bytes : bytes.subarray(at, at + n), this.#pos);
      this.#pos += n;
      at += n;
    }
  }

  byte(value: number): void {
    if (this.#pos === this.#buf.length) this.#next();
    this.#buf[this.#pos++] = value;
  }

  #next(): void {
    const size = Math.min(CHUNK_BYTES, this.#left);
    if (size === 0) throw new Error("listing: more bytes than counted");
    this.#left -= size;
    this.#buf = new Uint8Array(size);
    this.#pos = 0;
    this.chunks.push(this.#buf);
  }
}

/** Identifies what a listing of `dir` shows: its sorting, its vpath (item paths) and who may see which entry. */
function viewKey(dir: ScopedPath, realBase: string | null, sorting: Sorting): string {
  return JSON.stringify([sorting.by, sorting.asc, visibilityKey(dir, realBase)]);
}

/**
 * Identifies which entries of `dir` a user sees and under which path: its vpath, where it really is (a folder
 * reached through a link) and the user's rules and dot-file hiding. Renderings of a snapshot may be shared
 * between requests with the same key.
 */
export function visibilityKey(dir: ScopedPath, realBase: string | null): string {
  const c = dir.confinement;
  return JSON.stringify([dir.vpath, realBase, c.ruleBase, c.hideDotfiles, c.rules]);
}

/** The visible entries and the links, in listing order, as the UTF-8 of the items array's content. */
function renderItems(
  dir: ScopedPath,
  snap: DirSnapshot,
  order: Uint32Array,
  links: LinkItem[],
  realBase: string | null,
): RenderedItems {
  const conf = dir.confinement;
  // A folder reached through a symlink: its children must also pass the rules where they really are.
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
  const out = new ChunkWriter(size + Math.max(count - 1, 0));
  let first = true;
  const comma = () => {
    if (!first) out.byte(44); // ","
    first = false;
  };
  let l = 0;
  for (let k = 0; k <= order.length; k++) {
    while (l < links.length && links[l].at === k) {
      comma();
      out.write(links[l++].json);
    }
    if (k === order.length) break;
    const i = order[k];
    if (!visible[i]) continue;
    comma();
    out.write(head);
    const f = replaced.size > 0 ? replaced.get(i) : undefined;
    out.write(f ?? fragments.subarray(offsets[i], offsets[i + 1]));
  }
  return { chunks: out.chunks, count, numDirs };
}

/**
 * The listing JSON (UTF-8) of `dir`, already checked by the gate, with its own fields `self`, in chunks of at
 * most 256 KiB (never one buffer). Without symlinks among the entries, the items are encoded once per
 * (sorting, view) and kept in the snapshot (at most MAX_RENDERED_VIEWS, least recently used out): a warm
 * listing of an unchanged folder allocates only its last few bytes. The chunks are shared: never modify them.
 */
export async function renderListing(
  dir: ScopedPath,
  self: Resource,
  snap: DirSnapshot,
  options: RenderOptions,
): Promise<Uint8Array<ArrayBuffer>[]> {
  const links = snap.linkCount > 0 ? await resolveLinks(dir, snap, options.readHeaders) : [];
  const realBase = realVpathOf(dir);
  // Links are resolved per request (their targets are not watched), so listings with links are not kept.
  const key = links.length === 0 ? viewKey(dir, realBase, options.sorting) : null;
  let items = key === null ? undefined : snap.rendered.get(key);
  if (items !== undefined) {
    snap.rendered.delete(key!);
    snap.rendered.set(key!, items);
  } else {
    const order = orderOf(snap, options.sorting);
    if (links.length > 0) placeLinks(snap, order, links, options.sorting);
    items = renderItems(dir, snap, order, links, realBase);
    if (key !== null) {
      snap.rendered.set(key, items);
      for (const old of snap.rendered.keys()) {
        if (snap.rendered.size <= MAX_RENDERED_VIEWS) break;
        snap.rendered.delete(old);
      }
    }
  }
  const sorting = JSON.stringify({ by: options.sorting.by, asc: options.sorting.asc });
  const end = encoder.encode(
    `],"numDirs":${items.numDirs},"numFiles":${items.count - items.numDirs},"sorting":${sorting},${
      JSON.stringify(self).slice(1)
    }`,
  );
  return [START, ...items.chunks, end];
}

/** A response body for chunks: one chunk as is, more as a stream that hands them out as they are read. */
export function chunkedBody(
  chunks: Uint8Array<ArrayBuffer>[],
): Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> {
  if (chunks.length === 1) return chunks[0];
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(chunks[next++]);
      if (next === chunks.length) controller.close();
    },
  }, { highWaterMark: 0 });
}
