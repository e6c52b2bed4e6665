/**
 * Queries over an {@link IndexTree}: the entries below a folder whose names match a parsed query, in the
 * order the walking search yields them (depth-first, siblings by code point). Rules, hiding and links are
 * the caller's business (lib/search/mod.ts), since they depend on the user.
 */
import { compareBytes } from "../../fs/sort.ts";
import { matchesQuery, type SearchQuery } from "../query.ts";
import { ALIVE, DIR, EXT_OTHER, type IndexTree, LINK } from "./tree.ts";

const WIDE = /[\ud800-\uffff]/;

/** One matching entry; `rel` is relative to the searched folder. */
export interface IndexHit {
  rel: string;
  dir: boolean;
  link: boolean;
}

/** Which interned extensions satisfy the query's `type:` words (null: no type filter). */
function extFilter(tree: IndexTree, query: SearchQuery): Uint8Array | null {
  if (!query.types.length) return null;
  const only = { ...query, terms: [] };
  const ok = new Uint8Array(tree.exts.length);
  // `typeMatches` looks only at the extension, so any stem stands for every name with it.
  for (let i = 0; i < tree.exts.length; i++) ok[i] = matchesQuery(only, "x" + tree.exts[i]) ? 1 : 0;
  return ok;
}

/**
 * The entries strictly below the folder `base` matching `query`, sorted as a depth-first walk with
 * code-point-sorted siblings would yield them.
 */
export function queryIndex(tree: IndexTree, base: number, query: SearchQuery): IndexHit[] {
  const exts = extFilter(tree, query);
  const typeOk = (id: number): boolean => {
    if (!exts) return true;
    const e = tree.ext[id];
    return e === EXT_OTHER ? matchesQuery({ ...query, terms: [] }, tree.names.get(id)) : exts[e] === 1;
  };
  const candidates: number[] = [];
  if (query.terms.length) {
    // One term finds every id at most once; several may find the same id.
    const seen = query.terms.length > 1 ? new Set<number>() : null;
    for (const term of query.terms) {
      tree.names.search(term, { lower: !query.caseSensitive }, (id) => {
        if (seen?.has(id) || !(tree.flags[id] & ALIVE) || !typeOk(id)) return;
        seen?.add(id);
        candidates.push(id);
      });
    }
  } else {
    const stack = [base];
    while (stack.length) {
      const x = stack.pop()!;
      for (let c = tree.firstChild[x]; c !== -1; c = tree.nextSibling[c]) {
        if (typeOk(c)) candidates.push(c);
        if (tree.flags[c] & DIR) stack.push(c);
      }
    }
  }
  const relOf = folderPaths(tree, base);
  const hits: (IndexHit & { key: string })[] = [];
  for (const id of candidates) {
    if (id === base) continue;
    const dir = relOf(tree.parent[id]);
    if (dir === null) continue;
    const name = tree.names.get(id);
    const rel = dir === "" ? name : `${dir}/${name}`;
    const f = tree.flags[id];
    // NUL sorts below every character names may hold, so whole paths compare like their segments.
    hits.push({ rel, dir: (f & DIR) !== 0, link: (f & LINK) !== 0, key: rel.replaceAll("/", "\0") });
  }
  // UTF-16 order equals code point order unless surrogates meet U+E000..U+FFFF: the native compare is much faster.
  const wide = hits.some((h) => WIDE.test(h.key));
  hits.sort(
    wide ? (a, b) => compareBytes(a.key, b.key) : (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  return hits.map(({ rel, dir, link }) => ({ rel, dir, link }));
}

/** Memoised paths of folders relative to `base`; null for folders not below it. */
function folderPaths(tree: IndexTree, base: number): (id: number) => string | null {
  const memo = new Map<number, string | null>([[base, ""]]);
  return (id) => {
    const chain: number[] = [];
    let x = id;
    let known: string | null | undefined;
    for (;;) {
      known = memo.get(x);
      if (known !== undefined) break;
      if (x <= 0) {
        known = null;
        break;
      }
      chain.push(x);
      x = tree.parent[x];
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const c = chain[i];
      known = known === null ? null : known === "" ? tree.names.get(c) : `${known}/${tree.names.get(c)}`;
      memo.set(c, known);
    }
    return known;
  };
}
