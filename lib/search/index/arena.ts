/**
 * Entry names of the search index, packed: ids are grouped in segments of {@link SEGMENT} entries, and each
 * segment keeps its names as one string (joined by NUL, which no file name contains) plus a lower-cased copy,
 * each with an offset table. Substring search is then a native `indexOf` over a few large strings instead of
 * one call per name. Changed names wait in a small map until the segment is rebuilt on the next read.
 */

/** Entries per segment (a power of two: id >> SHIFT is the segment). */
export const SEGMENT = 1 << 16;
const SHIFT = 16;
const MASK = SEGMENT - 1;
const SEP = "\0";

interface Segment {
  raw: string;
  lower: string;
  /** Start of local name k in `raw` (k = 0..SEGMENT; the last one is the end). */
  rawStarts: Uint32Array;
  lowStarts: Uint32Array;
  /** Names set since the last rebuild, by local index. */
  pending: Map<number, string> | null;
}

function emptySegment(): Segment {
  return {
    raw: "",
    lower: "",
    rawStarts: new Uint32Array(SEGMENT + 1),
    lowStarts: new Uint32Array(SEGMENT + 1),
    pending: null,
  };
}

/** Finds the local index k with starts[k] <= pos < starts[k + 1]. */
function localAt(starts: Uint32Array, pos: number): number {
  let lo = 0, hi = SEGMENT - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The names of every id, in per-segment string arenas. */
export class NameArena {
  #segments: Segment[] = [];

  /** Sets the name of `id` (an empty name for a free id). */
  set(id: number, name: string): void {
    const s = id >> SHIFT;
    while (this.#segments.length <= s) this.#segments.push(emptySegment());
    const seg = this.#segments[s];
    (seg.pending ??= new Map()).set(id & MASK, name);
  }

  /** The name of `id` ("" when never set). */
  get(id: number): string {
    const seg = this.#segments[id >> SHIFT];
    if (!seg) return "";
    const k = id & MASK;
    const p = seg.pending?.get(k);
    if (p !== undefined) return p;
    return seg.raw.slice(seg.rawStarts[k], seg.rawStarts[k + 1] - 1);
  }

  #flush(seg: Segment): void {
    if (!seg.pending) return;
    const names: string[] = new Array(SEGMENT);
    for (let k = 0; k < SEGMENT; k++) {
      names[k] = seg.pending.get(k) ?? seg.raw.slice(seg.rawStarts[k], seg.rawStarts[k + 1] - 1);
    }
    seg.pending = null;
    // A separator after every name (also the last) keeps slicing uniform.
    fill(seg.rawStarts, names);
    seg.raw = names.join(SEP) + SEP;
    setLower(seg, names);
  }

  /**
   * Replaces every name at once: `text` holds the names of ids 0..n-1, each followed by NUL, and name i
   * starts at `starts[i]` (`starts[n]` is the end). Used to load a snapshot without one call per name.
   */
  load(text: string, starts: Uint32Array, n: number): void {
    this.#segments = [];
    for (let lo = 0; lo < n; lo += SEGMENT) {
      const hi = Math.min(lo + SEGMENT, n);
      const seg = emptySegment();
      const base = starts[lo];
      for (let k = 0; k <= hi - lo; k++) seg.rawStarts[k] = starts[lo + k] - base;
      // Unused ids of the last segment hold empty names.
      for (let k = hi - lo + 1; k <= SEGMENT; k++) seg.rawStarts[k] = seg.rawStarts[k - 1] + 1;
      seg.raw = text.slice(base, starts[hi]) + SEP.repeat(lo + SEGMENT - hi);
      setLower(seg, null);
      this.#segments.push(seg);
    }
  }

  /**
   * Calls `hit(id)` once for every id whose name contains `term` (`lower`: search the lower-cased names),
   * in id order.
   */
  search(term: string, options: { lower: boolean }, hit: (id: number) => void): void {
    if (term === "") return;
    for (let s = 0; s < this.#segments.length; s++) {
      const seg = this.#segments[s];
      this.#flush(seg);
      const text = options.lower ? seg.lower : seg.raw;
      const starts = options.lower ? seg.lowStarts : seg.rawStarts;
      let pos = text.indexOf(term);
      while (pos >= 0) {
        const k = localAt(starts, pos);
        const end = starts[k + 1] - 1;
        // A match running over the separator spans two names: look again from the next character.
        if (pos + term.length <= end) {
          hit((s << SHIFT) | k);
          pos = text.indexOf(term, end + 1);
        } else {
          pos = text.indexOf(term, pos + 1);
        }
      }
    }
  }

  /** Approximate bytes held (strings counted at 2 bytes per code unit when not one-byte); rebuilds segments. */
  bytes(): number {
    let n = 0;
    for (const seg of this.#segments) {
      this.#flush(seg);
      n += seg.rawStarts.byteLength + stringBytes(seg.raw);
      if (seg.lower !== seg.raw) n += seg.lowStarts.byteLength + stringBytes(seg.lower);
    }
    return n;
  }
}

/** Sets the lower-cased copy of a segment (`names`: its names, or null to split them from `raw`). */
function setLower(seg: Segment, names: string[] | null): void {
  const lower = seg.raw.toLowerCase();
  if (lower === seg.raw) {
    // Nothing to fold (common): share the string and offsets instead of holding a copy.
    seg.lower = seg.raw;
    seg.lowStarts = seg.rawStarts;
    return;
  }
  // Lower-casing may change lengths (U+0130), so each name is folded on its own.
  const lowered = (names ?? seg.raw.slice(0, -1).split(SEP)).map((n) => n.toLowerCase());
  if (seg.lowStarts === seg.rawStarts) seg.lowStarts = new Uint32Array(SEGMENT + 1);
  fill(seg.lowStarts, lowered);
  seg.lower = lowered.join(SEP) + SEP;
}

function fill(starts: Uint32Array, names: string[]): void {
  let at = 0;
  for (let k = 0; k < names.length; k++) {
    starts[k] = at;
    at += names[k].length + 1;
  }
  starts[names.length] = at;
}

// deno-lint-ignore no-control-regex -- any code unit above Latin-1 makes V8 store the string two bytes wide
const WIDE = /[^\u0000-\u00ff]/;

function stringBytes(s: string): number {
  return WIDE.test(s) ? s.length * 2 : s.length;
}
