/** Listing order (API.md §5.6), including the inverted name direction and upstream's natural compare. */
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

/** A name split once into non-digit and digit runs, so each comparison does no parsing. */
export interface NaturalKey {
  text: string;
  /** The runs themselves (compared with ===, cheaper than char loops). */
  runs: string[];
  /** Start offset of each run in `text`. */
  starts: number[];
  /** For digit runs: the value (null when it does not fit in 64 bits); undefined for other runs. */
  values: (number | bigint | null | undefined)[];
}

function naturalKey(text: string): NaturalKey {
  const starts: number[] = [];
  const runs: string[] = [];
  const values: (number | bigint | null | undefined)[] = [];
  let i = 0;
  while (i < text.length) {
    const start = i;
    const digits = isDigit(text.charCodeAt(i));
    while (i < text.length && isDigit(text.charCodeAt(i)) === digits) i++;
    starts.push(start);
    const run = text.slice(start, i);
    runs.push(run);
    values.push(digits ? (run.length <= 15 ? Number(run) : parseU64(run)) : undefined);
  }
  return { text, runs, starts, values };
}

/** The same order as {@link naturalLess}, on precomputed keys (-1, 0 or 1). */
function compareKeys(a: NaturalKey, b: NaturalKey): number {
  const n = Math.min(a.starts.length, b.starts.length);
  for (let t = 0; t < n; t++) {
    const as = a.starts[t], bs = b.starts[t];
    const ae = t + 1 < a.starts.length ? a.starts[t + 1] : a.text.length;
    const be = t + 1 < b.starts.length ? b.starts[t + 1] : b.text.length;
    const av = a.values[t], bv = b.values[t];
    if (av === undefined || bv === undefined) {
      // Non-digit runs (or a digit run against text): equal runs are a common prefix, anything else is
      // decided byte-wise from here, exactly like stripping the prefix and comparing the remainders.
      if (av === undefined && bv === undefined && a.runs[t] === b.runs[t]) continue;
      return Math.sign(compareBytes(a.text.slice(as), b.text.slice(bs)));
    }
    if (av !== null && bv !== null) {
      if (av != bv) return av < bv ? -1 : 1;
      if (ae < a.text.length && be < b.text.length) continue;
    }
    return Math.sign(compareBytes(a.text.slice(as), b.text.slice(bs)));
  }
  // Every run matched: the name with runs left is the longer one.
  return Math.sign(a.starts.length - b.starts.length);
}

/** Natural comparison (-1, 0, 1) of two lower-cased names; the order of {@link naturalLess}, faster. */
export function compareNatural(a: string, b: string): number {
  return compareKeys(naturalKey(a), naturalKey(b));
}

/** What the listing order looks at for one item; `key` is filled on first use by the name order. */
export interface SortFacts {
  name: string;
  isDir: boolean;
  size: number;
  mtimeMs: number;
  key?: NaturalKey;
}

function keyOf(f: SortFacts): NaturalKey {
  return f.key ??= naturalKey(f.name.toLowerCase());
}

function sizeKey(f: SortFacts): number {
  return f.isDir ? f.size - 2 ** 31 : f.size;
}

/**
 * The comparator of the user's listing order (API.md §5.6). A *stable* sort with it, of items in directory
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

function byName(ascFlag: boolean): (x: SortFacts, y: SortFacts) => number {
  return (x, y) => {
    if (x.isDir !== y.isDir) return x.isDir ? -1 : 1;
    const c = compareKeys(keyOf(x), keyOf(y));
    // Upstream quirk: asc=false means A→Z.
    return ascFlag ? -c : c;
  };
}

/** Sorts listing items in place per the user's sorting (API.md §5.6). */
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
