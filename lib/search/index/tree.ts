/**
 * The entries of the search index: one id per file or folder below the indexed root (id 0 is the root),
 * with parent links, child lists, kind flags, an interned extension and folder mtimes in typed arrays, and
 * names in a {@link NameArena}. Freed ids are reused. No disk access here (see build.ts).
 */
import { compareBytes } from "../../fs/sort.ts";
import { NameArena } from "./arena.ts";

const WIDE = /[\ud800-\uffff]/;

/** Entry flags; DOT marks names starting with "." (hidden for users who hide dot-files). */
export const ALIVE = 1, DIR = 2, LINK = 4, DOT = 8;

/** The flags that describe the kind of an entry (not its name). */
export const KIND = ALIVE | DIR | LINK;

/** Extension ids at or above this are not interned: test the name itself. */
export const EXT_OTHER = 0xffff;

const NONE = -1;

/** What a directory entry is, as far as the index cares. */
export interface EntryKind {
  isDirectory: boolean;
  isSymlink: boolean;
}

/** Flags of a dir entry. */
export function flagsOf(kind: EntryKind): number {
  return ALIVE | (kind.isDirectory ? DIR : 0) | (kind.isSymlink ? LINK : 0);
}

/** The extension `typeMatches` looks at: from the last dot, "" without one. */
export function extensionOf(name: string): string {
  const i = name.lastIndexOf(".");
  return i < 0 ? "" : name.slice(i);
}

/** The tree of indexed entries. */
export class IndexTree {
  readonly names = new NameArena();
  parent = new Int32Array(1024);
  firstChild = new Int32Array(1024);
  nextSibling = new Int32Array(1024);
  flags = new Uint8Array(1024);
  ext = new Uint16Array(1024);
  /** Folder mtime when it was last read; NaN = read it again on the next reconciliation. */
  mtime = new Float64Array(1024);
  /** Interned extensions: `exts[ext[id]]`. */
  readonly exts: string[] = [""];
  readonly #extIds = new Map<string, number>([["", 0]]);
  #size = 1;
  #free: number[] = [];
  #live = 1;
  /** Bumped by every change to the tree, so readers holding ids across a pause can tell they may be stale. */
  epoch = 0;

  constructor() {
    this.#reset(0);
    this.flags[0] = ALIVE | DIR;
    this.mtime[0] = NaN;
  }

  /**
   * Replaces the whole tree with `n` entries given as arrays (a loaded snapshot, already validated): entry 0 is
   * the root, every other entry's parent is a folder with a lower id, and siblings come in name order.
   * `names`/`starts` as in {@link NameArena.load}.
   */
  adopt(
    n: number,
    parent: Int32Array,
    flags: Uint8Array,
    mtime: Float64Array,
    names: string,
    starts: Uint32Array,
  ) {
    let cap = 1024;
    while (cap < n) cap *= 2;
    this.parent = new Int32Array(cap);
    this.parent.set(parent.subarray(0, n));
    this.flags = new Uint8Array(cap);
    this.flags.set(flags.subarray(0, n));
    this.mtime = new Float64Array(cap);
    this.mtime.set(mtime.subarray(0, n));
    this.firstChild = new Int32Array(cap).fill(NONE);
    this.nextSibling = new Int32Array(cap).fill(NONE);
    this.ext = new Uint16Array(cap);
    for (let i = n - 1; i >= 1; i--) {
      const p = parent[i];
      this.nextSibling[i] = this.firstChild[p];
      this.firstChild[p] = i;
      const dot = names.lastIndexOf(".", starts[i + 1] - 2);
      this.ext[i] = dot < starts[i] ? 0 : this.#extId(names.slice(dot, starts[i + 1] - 1));
    }
    this.names.load(names, starts, n);
    this.#size = n;
    this.#live = n;
    this.#free = [];
    this.epoch++;
  }

  /** Ids ever used (live or free): iterate `0 .. size`. */
  get size(): number {
    return this.#size;
  }

  /** Live entries, the root included. */
  get count(): number {
    return this.#live;
  }

  /** Live folders, the root included (counted: one pass over the flags). */
  get folders(): number {
    let n = 0;
    for (let id = 0; id < this.#size; id++) if ((this.flags[id] & (ALIVE | DIR)) === (ALIVE | DIR)) n++;
    return n;
  }

  #grow(): void {
    const n = this.parent.length * 2;
    const grow = <T extends Int32Array | Uint8Array | Uint16Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.parent = grow(this.parent);
    this.firstChild = grow(this.firstChild);
    this.nextSibling = grow(this.nextSibling);
    this.flags = grow(this.flags);
    this.ext = grow(this.ext);
    this.mtime = grow(this.mtime);
  }

  #reset(id: number): void {
    this.parent[id] = NONE;
    this.firstChild[id] = NONE;
    this.nextSibling[id] = NONE;
    this.flags[id] = 0;
    this.ext[id] = 0;
    this.mtime[id] = NaN;
  }

  #extId(name: string): number {
    const e = extensionOf(name);
    let id = this.#extIds.get(e);
    if (id === undefined) {
      if (this.exts.length >= EXT_OTHER) return EXT_OTHER;
      id = this.exts.length;
      this.exts.push(e);
      this.#extIds.set(e, id);
    }
    return id;
  }

  /** Adds an entry under the folder `parent` and returns its id. */
  add(parent: number, name: string, kind: EntryKind): number {
    let id = this.#free.pop();
    if (id === undefined) {
      if (this.#size === this.parent.length) this.#grow();
      id = this.#size++;
    }
    this.#reset(id);
    this.parent[id] = parent;
    this.flags[id] = flagsOf(kind) | (name.startsWith(".") ? DOT : 0);
    this.ext[id] = this.#extId(name);
    this.names.set(id, name);
    this.nextSibling[id] = this.firstChild[parent];
    this.firstChild[parent] = id;
    this.#live++;
    this.epoch++;
    return id;
  }

  /** The children of a folder as name → id. */
  children(dir: number): Map<string, number> {
    const out = new Map<string, number>();
    for (let c = this.firstChild[dir]; c !== NONE; c = this.nextSibling[c]) out.set(this.names.get(c), c);
    return out;
  }

  /** The child of `dir` called `name`, or -1. */
  child(dir: number, name: string): number {
    for (let c = this.firstChild[dir]; c !== NONE; c = this.nextSibling[c]) {
      if (this.names.get(c) === name) return c;
    }
    return NONE;
  }

  /** Relinks the children of `dir` in code point order of their names (the order searches report). */
  sortChildren(dir: number): void {
    const kids: { id: number; name: string }[] = [];
    let wide = false;
    for (let c = this.firstChild[dir]; c !== NONE; c = this.nextSibling[c]) {
      const name = this.names.get(c);
      if (!wide && WIDE.test(name)) wide = true;
      kids.push({ id: c, name });
    }
    // UTF-16 order equals code point order unless surrogates meet U+E000..U+FFFF: the native compare is faster.
    kids.sort(wide ? (a, b) => compareBytes(a.name, b.name) : (a, b) => (a.name < b.name ? -1 : 1));
    let next = NONE;
    for (let i = kids.length - 1; i >= 0; i--) {
      this.nextSibling[kids[i].id] = next;
      next = kids[i].id;
    }
    this.firstChild[dir] = next;
    this.epoch++;
  }

  /** Removes the children of `dir` that `drop` picks, with everything below them (one pass over the list). */
  prune(dir: number, drop: (id: number) => boolean): void {
    let prev = NONE;
    for (let c = this.firstChild[dir]; c !== NONE;) {
      const next = this.nextSibling[c];
      if (drop(c)) {
        if (prev === NONE) this.firstChild[dir] = next;
        else this.nextSibling[prev] = next;
        this.#freeSubtree(c);
        this.epoch++;
      } else {
        prev = c;
      }
      c = next;
    }
  }

  #freeSubtree(id: number): void {
    const stack = [id];
    while (stack.length) {
      const x = stack.pop()!;
      for (let c = this.firstChild[x]; c !== NONE; c = this.nextSibling[c]) stack.push(c);
      this.#reset(x);
      this.names.set(x, "");
      this.#free.push(x);
      this.#live--;
    }
  }

  /** The id at the slash-separated path relative to the root ("" = root), or -1. */
  lookup(rel: string): number {
    let id = 0;
    if (rel === "") return id;
    for (const seg of rel.split("/")) {
      if (!(this.flags[id] & DIR)) return NONE;
      id = this.child(id, seg);
      if (id === NONE) return NONE;
    }
    return id;
  }

  /** The path of `id` relative to the root, without leading slash ("" for the root). */
  pathOf(id: number): string {
    const parts: string[] = [];
    for (let x = id; x > 0; x = this.parent[x]) parts.push(this.names.get(x));
    return parts.reverse().join("/");
  }

  /** Approximate bytes held by the index. */
  bytes(): number {
    const arrays = [this.parent, this.firstChild, this.nextSibling, this.flags, this.ext, this.mtime];
    return arrays.reduce((n, a) => n + a.byteLength, 0) + this.names.bytes() + this.#free.length * 8;
  }
}
