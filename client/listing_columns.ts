// This module is browser-compatible.
/**
 * A folder's items as columns, the form client/listing_worker.ts hands a listing to the page in: the text of
 * every path, name and modification time in one string, the numbers and flags in typed arrays (moved, not
 * copied) and the strings that repeat (extension, type) once each in a table. Posting 100k objects makes the
 * page build them all inside one message task and leaves as many short strings to collect; columns arrive in
 * one cheap message and the page builds the items in slices between other work (client/api/listing.ts) with
 * `appendItems` (client/listing_items.ts: the page's side, kept apart so the page and the worker share no code).
 */
import type { Resource } from "../lib/types.ts";

/** Bit of `flags`: a folder (client/listing_items.ts reads the bits as numbers). */
const DIR = 1;
/** Bit of `flags`: a symbolic link. */
const LINK = 2;
/** The fields of a listing item; an item with others (or other types) travels whole in `odd`. */
const FIELDS = ["path", "name", "size", "extension", "modified", "mode", "isDir", "isSymlink", "type"];

/** The items of a folder as columns (see the module comment). */
export interface ListingColumns {
  count: number;
  /** path, name and modified of every item, one after another. */
  text: string;
  /** Where each of them ends in `text` (three entries an item). */
  ends: Uint32Array;
  size: Float64Array;
  mode: Float64Array;
  /** {@link DIR} and {@link LINK} bits. */
  flags: Uint8Array;
  /** extension and type of every item (two entries an item): indices into `strings`. */
  refs: Uint32Array;
  strings: string[];
  /** Items of another shape, whole, by index (their columns are empty). */
  odd: Record<number, Resource>;
}

function plain(item: Resource): boolean {
  const r = item as unknown as Record<string, unknown>;
  return Object.keys(r).length === FIELDS.length && typeof r.path === "string" &&
    typeof r.name === "string" && typeof r.extension === "string" && typeof r.modified === "string" &&
    typeof r.type === "string" && typeof r.size === "number" && typeof r.mode === "number" &&
    typeof r.isDir === "boolean" && typeof r.isSymlink === "boolean";
}

/** `items` as columns. */
export function toColumns(items: readonly Resource[]): ListingColumns {
  const count = items.length;
  const parts: string[] = [];
  const ends = new Uint32Array(count * 3);
  const size = new Float64Array(count);
  const mode = new Float64Array(count);
  const flags = new Uint8Array(count);
  const refs = new Uint32Array(count * 2);
  const strings: string[] = [];
  const index = new Map<string, number>();
  const ref = (s: string) => {
    let i = index.get(s);
    if (i === undefined) index.set(s, i = strings.push(s) - 1);
    return i;
  };
  const odd: Record<number, Resource> = {};
  let end = 0;
  for (let i = 0; i < count; i++) {
    const item = items[i];
    if (plain(item)) {
      // Modification times rarely repeat: in the text, they cost the page no string to clone in one go.
      parts.push(item.path, item.name, item.modified);
      ends[3 * i] = end += item.path.length;
      ends[3 * i + 1] = end += item.name.length;
      ends[3 * i + 2] = end += item.modified.length;
      size[i] = item.size;
      mode[i] = item.mode;
      flags[i] = (item.isDir ? DIR : 0) | (item.isSymlink ? LINK : 0);
      refs[2 * i] = ref(item.extension);
      refs[2 * i + 1] = ref(item.type);
    } else {
      odd[i] = item;
      ends[3 * i] = ends[3 * i + 1] = ends[3 * i + 2] = end;
    }
  }
  return { count, text: parts.join(""), ends, size, mode, flags, refs, strings, odd };
}

/** The buffers of `columns`, to transfer with it. */
export function columnBuffers(c: ListingColumns): ArrayBuffer[] {
  return [c.ends, c.size, c.mode, c.flags, c.refs].map((a) => a.buffer as ArrayBuffer);
}
