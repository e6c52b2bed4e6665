/**
 * Queries over an {@link IndexTree}: the entries below a folder whose names match a parsed query, in the
 * order the walking search yields them (depth-first, siblings by code point; the tree keeps siblings in that
 * order). Matches are marked first (a native `indexOf` over the name arena), then a depth-first pass that
 * enters only folders with a match below streams them in batches, building paths for hits only. Rules,
 * hiding and links are the caller's business (lib/search/mod.ts), since they depend on the user.
 */
import { compareBytes } from "../../fs/sort.ts";
import { matchesQuery, type SearchQuery } from "../query.ts";
import { ALIVE, DIR, DOT, EXT_OTHER, type IndexTree, LINK } from "./tree.ts";

/** One matching entry: its folder relative to the searched one ("" = that folder) and its name. */
export interface IndexHit {
  /** The same string object for consecutive hits of one folder. */
  parent: string;
  name: string;
  dir: boolean;
  link: boolean;
}

/** Options of {@link queryIndex}. */
export interface IndexQueryOptions {
  /** Leave out names starting with "." and everything below them. */
  skipDot?: boolean;
}

/** Hits per batch. */
const BATCH = 256;
const NONE = -1;
/** Marks: the entry matches; a folder has a match somewhere below it. */
const MATCH = 1, BELOW = 2;

/** Which interned extensions satisfy the query's `type:` words (null: no type filter). */
function extFilter(tree: IndexTree, query: SearchQuery): Uint8Array | null {
  if (!query.types.length) return null;
  const only = { ...query, terms: [] };
  const ok = new Uint8Array(tree.exts.length);
  // `typeMatches` looks only at the extension, so any stem stands for every name with it.
  for (let i = 0; i < tree.exts.length; i++) ok[i] = matchesQuery(only, "x" + tree.exts[i]) ? 1 : 0;
  return ok;
}

/** Marks every live match and the folders above it. */
function mark(tree: IndexTree, query: SearchQuery): Uint8Array {
  const marks = new Uint8Array(tree.size);
  const exts = extFilter(tree, query);
  const typeOnly = { ...query, terms: [] };
  const hit = (id: number) => {
    if (!(tree.flags[id] & ALIVE) || marks[id] & MATCH) return;
    if (exts) {
      const e = tree.ext[id];
      if (e === EXT_OTHER ? !matchesQuery(typeOnly, tree.names.get(id)) : exts[e] !== 1) return;
    }
    marks[id] |= MATCH;
    for (let x = tree.parent[id]; x >= 0 && !(marks[x] & BELOW); x = tree.parent[x]) marks[x] |= BELOW;
  };
  if (query.terms.length) {
    for (const term of query.terms) tree.names.search(term, { lower: !query.caseSensitive }, hit);
  } else {
    for (let id = 1; id < tree.size; id++) hit(id);
  }
  return marks;
}

/** The depth-first position: per open folder its id, path, next child to visit and last child visited. */
interface Frames {
  ids: number[];
  rels: string[];
  next: number[];
  last: number[];
}

function push(tree: IndexTree, f: Frames, id: number, rel: string): void {
  f.ids.push(id);
  f.rels.push(rel);
  f.next.push(tree.firstChild[id]);
  f.last.push(NONE);
}

function join(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

/**
 * Rebuilds the position after the tree changed under a paused query: `path` names the last child visited in
 * each open folder; the walk goes on after it (ids may have been reused, names in order cannot lie).
 */
function seek(tree: IndexTree, baseRel: string, path: (string | null)[]): Frames | null {
  const base = tree.lookup(baseRel);
  if (base < 0 || !(tree.flags[base] & DIR)) return null;
  const f: Frames = { ids: [], rels: [], next: [], last: [] };
  push(tree, f, base, "");
  for (let k = 0; k < path.length; k++) {
    const want = path[k];
    if (want === null) break;
    const top = f.ids.length - 1;
    let prev = NONE, c = tree.firstChild[f.ids[top]];
    while (c !== NONE && compareBytes(tree.names.get(c), want) < 0) {
      prev = c;
      c = tree.nextSibling[c];
    }
    const same = c !== NONE && tree.names.get(c) === want;
    if (same && k + 1 < path.length && tree.flags[c] & DIR) {
      // The walk was inside this folder: go on inside it.
      f.next[top] = tree.nextSibling[c];
      f.last[top] = c;
      push(tree, f, c, join(f.rels[top], want));
      continue;
    }
    if (same) {
      prev = c;
      c = tree.nextSibling[c];
    }
    f.next[top] = c;
    f.last[top] = prev;
    break;
  }
  return f;
}

/**
 * The entries strictly below the folder at `baseRel` (an indexed folder) matching `query`, in batches, in
 * the order of a depth-first walk with code-point-sorted siblings. Safe to pause between batches while the
 * tree changes: the walk then marks again and resumes after the last name it visited.
 */
export function* queryIndex(
  tree: IndexTree,
  baseRel: string,
  query: SearchQuery,
  options: IndexQueryOptions = {},
): Generator<IndexHit[]> {
  let epoch = tree.epoch;
  let marks = mark(tree, query);
  let f = seek(tree, baseRel, []);
  const skip = options.skipDot ? DOT : 0;
  let batch: IndexHit[] = [];
  while (f && f.ids.length) {
    const top = f.ids.length - 1;
    const c = f.next[top];
    if (c === NONE) {
      f.ids.pop(), f.rels.pop(), f.next.pop(), f.last.pop();
      continue;
    }
    f.next[top] = tree.nextSibling[c];
    f.last[top] = c;
    const m = marks[c];
    if (!m) continue;
    const flags = tree.flags[c];
    if (flags & skip) continue;
    const name = tree.names.get(c);
    if (m & MATCH) {
      batch.push({ parent: f.rels[top], name, dir: (flags & DIR) !== 0, link: (flags & LINK) !== 0 });
    }
    if (m & BELOW && flags & DIR) push(tree, f, c, join(f.rels[top], name));
    if (batch.length < BATCH) continue;
    const path = f.last.map((id) => (id === NONE ? null : tree.names.get(id)));
    yield batch;
    batch = [];
    if (tree.epoch !== epoch) {
      epoch = tree.epoch;
      marks = mark(tree, query);
      f = seek(tree, baseRel, path);
    }
  }
  if (batch.length) yield batch;
}
