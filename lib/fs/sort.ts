// This module is browser-compatible.
/** Listing order (docs/api.md), including the inverted name direction and upstream's natural compare. */
import type { Resource, Sorting } from "../types.ts";

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Byte-wise (UTF-8 order = code point order) comparison of two strings. */
export function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!, y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

const MAX_U64 = 18446744073709551615n;

function digitRun(s: string): string {
  let i = 0;
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  return s.slice(0, i);
}

function parseU64(run: string): bigint | null {
  if (run.length > 20) return null;
  const n = BigInt(run);
  return n > MAX_U64 ? null : n;
}

/**
 * Natural "less than" of two (already lower-cased) names: digit runs compare as numbers (`file2` < `file10`);
 * anything ambiguous (`a01` vs `a1`) falls back to bytes.
 */
export function naturalLess(a: string, b: string): boolean {
  for (;;) {
    let i = 0;
    while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i) && !isDigit(a.charCodeAt(i))) {
      i++;
    }
    a = a.slice(i);
    b = b.slice(i);
    if (a.length === 0) return b.length !== 0;
    if (b.length > 0 && isDigit(a.charCodeAt(0)) && isDigit(b.charCodeAt(0))) {
      const ra = digitRun(a), rb = digitRun(b);
      const na = parseU64(ra), nb = parseU64(rb);
      if (na !== null && nb !== null) {
        if (na !== nb) return na < nb;
        if (a.length > ra.length && b.length > rb.length) {
          a = a.slice(ra.length);
          b = b.slice(rb.length);
          continue;
        }
      }
    }
    return compareBytes(a, b) < 0;
  }
}

/** A listing item with the raw mtime the `modified` sort needs. */
export interface SortableItem {
  resource: Resource;
  mtimeMs: number;
}

/** Byte-wise (code point) comparison of `a` from `i` and `b` from `j` (-1, 0 or 1). */
function compareBytesFrom(a: string, i: number, b: string, j: number): number {
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i)!, y = b.codePointAt(j)!;
    if (x !== y) return x < y ? -1 : 1;
    const step = x > 0xffff ? 2 : 1;
    i += step;
    j += step;
  }
  return Math.sign((a.length - i) - (b.length - j));
}

const MAX_U64_TEXT = "18446744073709551615";

/** True when the digit run `s[from..to)` fits in an unsigned 64-bit number (leading zeros count). */
function fitsU64(s: string, from: number, to: number): boolean {
  const n = to - from;
  if (n < 20) return true;
  if (n > 20) return false;
  for (let k = 0; k < 20; k++) {
    const c = s.charCodeAt(from + k), m = MAX_U64_TEXT.charCodeAt(k);
    if (c !== m) return c < m;
  }
  return true;
}

/** Numeric comparison of two digit runs that fit in 64 bits, without parsing (-1, 0 or 1). */
function compareRuns(a: string, ai: number, ae: number, b: string, bi: number, be: number): number {
  while (ai < ae - 1 && a.charCodeAt(ai) === 48) ai++;
  while (bi < be - 1 && b.charCodeAt(bi) === 48) bi++;
  if (ae - ai !== be - bi) return ae - ai < be - bi ? -1 : 1;
  for (; ai < ae; ai++, bi++) {
    const x = a.charCodeAt(ai), y = b.charCodeAt(bi);
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Natural comparison (-1, 0, 1) of two lower-cased names: -1 when `naturalLess(a, b)`, 1 when
 * `naturalLess(b, a)`, else 0. Walks both strings in place (no slices, no parsing), which keeps big sorts
 * cheap.
 */
export function compareNatural(a: string, b: string): number {
  let i = 0, j = 0;
  for (;;) {
    // Strip the longest common prefix without digits.
    while (i < a.length && j < b.length) {
      const c = a.charCodeAt(i);
      if (c !== b.charCodeAt(j) || isDigit(c)) break;
      i++;
      j++;
    }
    if (i === a.length) return j === b.length ? 0 : -1;
    if (j === b.length) return 1;
    if (!isDigit(a.charCodeAt(i)) || !isDigit(b.charCodeAt(j))) return compareBytesFrom(a, i, b, j);
    let ae = i, be = j;
    while (ae < a.length && isDigit(a.charCodeAt(ae))) ae++;
    while (be < b.length && isDigit(b.charCodeAt(be))) be++;
    if (!fitsU64(a, i, ae) || !fitsU64(b, j, be)) return compareBytesFrom(a, i, b, j);
    const c = compareRuns(a, i, ae, b, j, be);
    if (c !== 0) return c;
    // Equal numbers: go on only when both names continue after them, else bytes decide.
    if (ae === a.length || be === b.length) return compareBytesFrom(a, i, b, j);
    i = ae;
    j = be;
  }
}

/** What the listing order looks at for one item; `lower` is filled on first use by the name order. */
export interface SortFacts {
  name: string;
  isDir: boolean;
  size: number;
  mtimeMs: number;
  lower?: string;
}

function lowerOf(f: SortFacts): string {
  return f.lower ??= f.name.toLowerCase();
}

function sizeKey(f: SortFacts): number {
  return f.isDir ? f.size - 2 ** 31 : f.size;
}

/**
 * The comparator of the user's listing order. A *stable* sort with it, of items in directory
 * read order, is the listing order; ties keep read order.
 */
export function comparatorFor(sorting: Sorting): (x: SortFacts, y: SortFacts) => number {
  const asc = sorting.asc;
  switch (sorting.by) {
    case "name":
      return byName(asc);
    case "size":
      return asc ? (x, y) => sizeKey(x) - sizeKey(y) : (x, y) => sizeKey(y) - sizeKey(x);
    case "modified":
      return asc ? (x, y) => x.mtimeMs - y.mtimeMs : (x, y) => y.mtimeMs - x.mtimeMs;
    default:
      // No sorting: directory read order, which upstream gets byte-sorted from the OS call.
      return asc ? byName(true) : (x, y) => compareBytes(x.name, y.name);
  }
}

/** Column access for {@link indexComparator}: the facts of item `i`. */
export interface SortColumns {
  names: readonly string[];
  isDir(i: number): boolean;
  sizes: ArrayLike<number>;
  mtimes: ArrayLike<number>;
}

/**
 * {@link comparatorFor} over item indices into columns (no per-item objects): the same order, for sorting
 * big snapshots.
 */
export function indexComparator(sorting: Sorting, cols: SortColumns): (x: number, y: number) => number {
  const { names, sizes, mtimes } = cols;
  const isDir = (i: number) => cols.isDir(i);
  const sizeOf = (i: number) => isDir(i) ? sizes[i] - 2 ** 31 : sizes[i];
  const named = (ascFlag: boolean) => {
    const lower = names.map((n) => n.toLowerCase());
    return (x: number, y: number) => {
      const dx = isDir(x);
      if (dx !== isDir(y)) return dx ? -1 : 1;
      const c = compareNatural(lower[x], lower[y]);
      return ascFlag ? -c : c;
    };
  };
  switch (sorting.by) {
    case "name":
      return named(sorting.asc);
    case "size":
      return sorting.asc ? (x, y) => sizeOf(x) - sizeOf(y) : (x, y) => sizeOf(y) - sizeOf(x);
    case "modified":
      return sorting.asc ? (x, y) => mtimes[x] - mtimes[y] : (x, y) => mtimes[y] - mtimes[x];
    default:
      return sorting.asc ? named(true) : (x, y) => compareBytes(names[x], names[y]);
  }
}

function byName(ascFlag: boolean): (x: SortFacts, y: SortFacts) => number {
  return (x, y) => {
    if (x.isDir !== y.isDir) return x.isDir ? -1 : 1;
    const c = compareNatural(lowerOf(x), lowerOf(y));
    // Upstream quirk: asc=false means A→Z.
    return ascFlag ? -c : c;
  };
}

/** Sorts listing items in place per the user's sorting. */
export function sortItems(items: SortableItem[], sorting: Sorting): void {
  const compare = comparatorFor(sorting);
  const keyed = items.map((item) => ({
    item,
    facts: {
      name: item.resource.name,
      isDir: item.resource.isDir,
      size: item.resource.size,
      mtimeMs: item.mtimeMs,
    } as SortFacts,
  }));
  keyed.sort((x, y) => compare(x.facts, y.facts));
  for (let i = 0; i < keyed.length; i++) items[i] = keyed[i].item;
}
