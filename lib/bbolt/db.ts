/**
 * A small read-only bbolt reader: picks the meta page as bbolt does, walks branch and leaf pages (overflow
 * included) and nested buckets, inline or not. Every offset is bounds-checked: a damaged file gives a
 * BoltFormatError naming the page, never a crash or a loop.
 */
import {
  BoltFormatError,
  BRANCH_PAGE,
  BUCKET_HEADER_SIZE,
  BUCKET_LEAF,
  ELEMENT_SIZE,
  LEAF_PAGE,
  type Meta,
  PAGE_HEADER_SIZE,
  pageAt,
  selectMeta,
} from "./page.ts";

export { BoltFormatError } from "./page.ts";
export type { Meta } from "./page.ts";

/** One key/value pair of a bucket; `bucket` marks a sub-bucket (its value is the bucket header). */
export interface Entry {
  key: Uint8Array;
  value: Uint8Array;
  bucket: boolean;
}

// A page to read: a real page of the file, or a bucket's inline page inside its parent's value.
interface Node {
  bytes: Uint8Array;
  flags: number;
  count: number;
  label: string;
}

const MAX_DEPTH = 64;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Compares two byte strings as bbolt orders keys. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

function u64(b: Uint8Array, at: number): number {
  const lo = u32(b, at), hi = u32(b, at + 4);
  // Page ids above 2^53 are nonsense for a file we can hold in memory; keep them out of range.
  return hi >= 0x200000 ? Number.MAX_SAFE_INTEGER : hi * 0x100000000 + lo;
}

/** An opened database (the whole file in memory). */
export class BoltDb {
  readonly meta: Meta;
  readonly #file: Uint8Array;

  private constructor(file: Uint8Array) {
    this.#file = file;
    this.meta = selectMeta(file);
  }

  /** Opens a database from its bytes; throws BoltFormatError when neither meta page is valid. */
  static open(file: Uint8Array): BoltDb {
    return new BoltDb(file);
  }

  /** Reads a database file (read-only). */
  static async read(path: string): Promise<BoltDb> {
    return new BoltDb(await Deno.readFile(path));
  }

  /** The root bucket (its entries are the top-level buckets). */
  root(): Bucket {
    return new Bucket(this, this.page(Number(this.meta.root), "root bucket"), "", 0);
  }

  /** A top-level bucket by name, or null. */
  bucket(name: string): Bucket | null {
    return this.root().bucket(name);
  }

  /** @internal Reads a page as a node, checking its type. */
  page(id: number, label: string): Node {
    const { header, bytes } = pageAt(this.#file, this.meta, id);
    if (header.flags !== BRANCH_PAGE && header.flags !== LEAF_PAGE) {
      throw new BoltFormatError(`page ${id} (${label}) is not a branch or leaf page (flags ${header.flags})`);
    }
    return { bytes, flags: header.flags, count: header.count, label: `page ${id} (${label})` };
  }
}

/** A bucket: iterate its entries, get a value, open a sub-bucket. */
export class Bucket {
  readonly #db: BoltDb;
  readonly #root: Node;
  /** Path of the bucket, e.g. "User/__storm_metadata". */
  readonly path: string;
  readonly #depth: number;

  /** @internal */
  constructor(db: BoltDb, root: Node, path: string, depth: number) {
    this.#db = db;
    this.#root = root;
    this.path = path;
    this.#depth = depth;
  }

  /** Every entry in key order. */
  *entries(): Generator<Entry> {
    yield* this.#walk(this.#root, 0, new Set());
  }

  /** The value of a plain key (null when missing or a sub-bucket). */
  get(key: Uint8Array | string): Uint8Array | null {
    const e = this.#find(typeof key === "string" ? encoder.encode(key) : key);
    return e && !e.bucket ? e.value : null;
  }

  /** A sub-bucket by name, or null. */
  bucket(name: Uint8Array | string): Bucket | null {
    const e = this.#find(typeof name === "string" ? encoder.encode(name) : name);
    return e && e.bucket ? this.open(e) : null;
  }

  /** Opens the sub-bucket of an entry with `bucket: true`. */
  open(e: Entry): Bucket {
    const name = decoder.decode(e.key);
    const path = this.path ? `${this.path}/${name}` : name;
    if (this.#depth >= MAX_DEPTH) throw new BoltFormatError(`bucket ${path} is nested too deeply`);
    if (e.value.length < BUCKET_HEADER_SIZE) throw new BoltFormatError(`bucket ${path} has a short header`);
    const root = u64(e.value, 0);
    if (root !== 0) return new Bucket(this.#db, this.#db.page(root, `bucket ${path}`), path, this.#depth + 1);
    const bytes = e.value.subarray(BUCKET_HEADER_SIZE);
    if (bytes.length < PAGE_HEADER_SIZE) throw new BoltFormatError(`inline bucket ${path} is truncated`);
    const flags = bytes[8] | (bytes[9] << 8), count = bytes[10] | (bytes[11] << 8);
    if (flags !== LEAF_PAGE) throw new BoltFormatError(`inline bucket ${path} is not a leaf page`);
    return new Bucket(
      this.#db,
      { bytes, flags, count, label: `inline bucket ${path}` },
      path,
      this.#depth + 1,
    );
  }

  #leaf(node: Node, i: number): Entry {
    const base = PAGE_HEADER_SIZE + i * ELEMENT_SIZE;
    const b = node.bytes;
    if (base + ELEMENT_SIZE > b.length) throw new BoltFormatError(`${node.label}: element ${i} is cut off`);
    const flags = u32(b, base), pos = u32(b, base + 4);
    const ksize = u32(b, base + 8), vsize = u32(b, base + 12);
    const start = base + pos, mid = start + ksize, end = mid + vsize;
    if (end > b.length) throw new BoltFormatError(`${node.label}: element ${i} lies outside the page`);
    return { key: b.subarray(start, mid), value: b.subarray(mid, end), bucket: (flags & BUCKET_LEAF) !== 0 };
  }

  #branch(node: Node, i: number): { key: Uint8Array; child: number } {
    const base = PAGE_HEADER_SIZE + i * ELEMENT_SIZE;
    const b = node.bytes;
    if (base + ELEMENT_SIZE > b.length) throw new BoltFormatError(`${node.label}: element ${i} is cut off`);
    const pos = u32(b, base), ksize = u32(b, base + 4);
    const start = base + pos;
    if (start + ksize > b.length) {
      throw new BoltFormatError(`${node.label}: element ${i} lies outside the page`);
    }
    return { key: b.subarray(start, start + ksize), child: u64(b, base + 8) };
  }

  #child(node: Node, id: number, depth: number, seen: Set<number>): Node {
    if (depth >= MAX_DEPTH || seen.has(id)) {
      throw new BoltFormatError(`${node.label}: the tree loops back to page ${id}`);
    }
    seen.add(id);
    return this.#db.page(id, this.path || "root bucket");
  }

  *#walk(node: Node, depth: number, seen: Set<number>): Generator<Entry> {
    if (node.flags === LEAF_PAGE) {
      for (let i = 0; i < node.count; i++) yield this.#leaf(node, i);
      return;
    }
    for (let i = 0; i < node.count; i++) {
      yield* this.#walk(this.#child(node, this.#branch(node, i).child, depth + 1, seen), depth + 1, seen);
    }
  }

  #find(key: Uint8Array): Entry | null {
    let node = this.#root;
    const seen = new Set<number>();
    for (let depth = 0; node.flags === BRANCH_PAGE; depth++) {
      // The last child whose first key is <= key (or the first child).
      let pick = 0;
      for (let i = 1; i < node.count; i++) {
        if (compareBytes(this.#branch(node, i).key, key) <= 0) pick = i;
        else break;
      }
      if (node.count === 0) return null;
      node = this.#child(node, this.#branch(node, pick).child, depth + 1, seen);
    }
    for (let i = 0; i < node.count; i++) {
      const e = this.#leaf(node, i);
      if (compareBytes(e.key, key) === 0) return e;
    }
    return null;
  }
}
