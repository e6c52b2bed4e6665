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

function byName(items: SortableItem[], ascFlag: boolean): void {
  const keys = new Map(items.map((it) => [it, it.resource.name.toLowerCase()]));
  items.sort((x, y) => {
    if (x.resource.isDir !== y.resource.isDir) return x.resource.isDir ? -1 : 1;
    const a = keys.get(x)!, b = keys.get(y)!;
    // Upstream quirk: asc=false means A→Z.
    const less = ascFlag ? naturalLess(b, a) : naturalLess(a, b);
    if (less) return -1;
    return (ascFlag ? naturalLess(a, b) : naturalLess(b, a)) ? 1 : 0;
  });
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
