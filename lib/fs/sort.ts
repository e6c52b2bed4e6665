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
interface NaturalKey {
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

function byName(items: SortableItem[], ascFlag: boolean): void {
  const keyed = items.map((item) => ({
    item,
    dir: item.resource.isDir,
    key: naturalKey(item.resource.name.toLowerCase()),
  }));
  keyed.sort((x, y) => {
    if (x.dir !== y.dir) return x.dir ? -1 : 1;
    const c = compareKeys(x.key, y.key);
    // Upstream quirk: asc=false means A→Z.
    return ascFlag ? -c : c;
  });
  for (let i = 0; i < keyed.length; i++) items[i] = keyed[i].item;
}

/** Sorts listing items in place per the user's sorting (API.md §5.6). */
export function sortItems(items: SortableItem[], sorting: Sorting): void {
  const size = (it: SortableItem) => it.resource.isDir ? it.resource.size - 2 ** 31 : it.resource.size;
  switch (sorting.by) {
    case "name":
      return byName(items, sorting.asc);
    case "size":
      items.sort((x, y) => sorting.asc ? size(x) - size(y) : size(y) - size(x));
      return;
    case "modified":
      items.sort((x, y) => sorting.asc ? x.mtimeMs - y.mtimeMs : y.mtimeMs - x.mtimeMs);
      return;
    default:
      if (sorting.asc) return byName(items, true);
      // No sorting: directory read order, which upstream gets byte-sorted from the OS call.
      items.sort((x, y) => compareBytes(x.resource.name, y.resource.name));
  }
}
