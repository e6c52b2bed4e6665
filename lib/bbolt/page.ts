/**
 * The bbolt page format (little-endian, as bbolt writes it on every platform we meet): page headers, the two
 * meta pages and their FNV-1a 64 checksum. Pure functions over the file's bytes.
 */
import { BadRequestError } from "../errors.ts";

/** Page header size: id u64, flags u16, count u16, overflow u32. */
export const PAGE_HEADER_SIZE = 16;
/** Size of one branch or leaf element. */
export const ELEMENT_SIZE = 16;
/** Bucket header inside a leaf value: root page id u64, sequence u64. */
export const BUCKET_HEADER_SIZE = 16;

export const BRANCH_PAGE = 0x01;
export const LEAF_PAGE = 0x02;
export const META_PAGE = 0x04;
export const FREELIST_PAGE = 0x10;
/** Leaf element flag: the value is a sub-bucket. */
export const BUCKET_LEAF = 0x01;

const MAGIC = 0xed0cdaed;
const VERSION = 2;
/** Bytes of the meta covered by its checksum (everything before the checksum field). */
const META_SUMMED = 56;

/** A file that is not a readable bbolt database; the message names the page or record. */
export class BoltFormatError extends BadRequestError {
  constructor(message: string) {
    super(message, { code: "bad_bbolt" });
    this.name = "BoltFormatError";
  }
}

/** A decoded meta page. */
export interface Meta {
  /** 0 or 1. */
  page: number;
  pageSize: number;
  root: bigint;
  freelist: bigint;
  /** High-water mark: pages at or above it are unused. */
  pgid: bigint;
  txid: bigint;
}

/** FNV-1a 64 of `bytes`. */
export function fnv1a64(bytes: Uint8Array): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h;
}

/**
 * Decodes and checks the meta at `offset` (a meta page's start). Returns the meta, or a reason it is unusable:
 * wrong magic, another format version, or a checksum that does not match (a zero checksum is accepted, as bbolt).
 */
export function readMeta(file: Uint8Array, offset: number, page: number): Meta | string {
  if (offset + PAGE_HEADER_SIZE + 64 > file.length) {
    return `meta page ${page} lies beyond the end of the file`;
  }
  const v = new DataView(file.buffer, file.byteOffset + offset + PAGE_HEADER_SIZE, 64);
  if (v.getUint32(0, true) !== MAGIC) return `meta page ${page} has no bbolt magic`;
  if (v.getUint32(4, true) !== VERSION) return `meta page ${page} has format version ${v.getUint32(4, true)}`;
  const checksum = v.getBigUint64(56, true);
  const start = file.byteOffset + offset + PAGE_HEADER_SIZE;
  if (checksum !== 0n && checksum !== fnv1a64(new Uint8Array(file.buffer, start, META_SUMMED))) {
    return `meta page ${page} has a bad checksum`;
  }
  return {
    page,
    pageSize: v.getUint32(8, true),
    root: v.getBigUint64(16, true),
    freelist: v.getBigUint64(32, true),
    pgid: v.getBigUint64(40, true),
    txid: v.getBigUint64(48, true),
  };
}

const PAGE_SIZES = [4096, 8192, 16384, 32768, 65536, 1024, 2048];

/**
 * Picks the meta page bbolt would use: the valid one with the higher txid, else the other valid one.
 * Page 1 sits one page in, so when page 0 is unreadable its size is guessed among the usual page sizes.
 */
export function selectMeta(file: Uint8Array): Meta {
  const m0 = readMeta(file, 0, 0);
  const candidates = typeof m0 === "string" ? PAGE_SIZES : [m0.pageSize];
  let m1: Meta | string = "meta page 1 is unreadable";
  for (const size of candidates) {
    const m = readMeta(file, size, 1);
    if (typeof m !== "string" && m.pageSize === size) {
      m1 = m;
      break;
    }
    if (size === candidates[0]) m1 = m;
  }
  const valid = [m0, m1].filter((m): m is Meta => typeof m !== "string" && sane(m, file.length));
  if (valid.length === 0) {
    const why = [m0, m1].map((m) =>
      typeof m === "string" ? m : `meta page ${m.page} points outside the file`
    );
    throw new BoltFormatError(`not a bbolt database (${why.join("; ")})`);
  }
  return valid.sort((a, b) => (a.txid > b.txid ? -1 : a.txid < b.txid ? 1 : 0))[0];
}

function sane(m: Meta, fileSize: number): boolean {
  const sizeOk = m.pageSize >= 512 && m.pageSize <= 1 << 20 && (m.pageSize & (m.pageSize - 1)) === 0;
  return sizeOk && m.root >= 2n && m.root < m.pgid && m.pgid * BigInt(m.pageSize) <= BigInt(fileSize);
}

/** A page header. */
export interface PageHeader {
  id: number;
  flags: number;
  count: number;
  overflow: number;
}

/** Reads the header of page `id`, checking that the page and its overflow lie below the high-water mark. */
export function pageAt(file: Uint8Array, meta: Meta, id: number): { header: PageHeader; bytes: Uint8Array } {
  if (!Number.isSafeInteger(id) || id < 2 || BigInt(id) >= meta.pgid) {
    throw new BoltFormatError(`page ${id} is outside the database (high-water mark ${meta.pgid})`);
  }
  const offset = id * meta.pageSize;
  const v = new DataView(file.buffer, file.byteOffset + offset, PAGE_HEADER_SIZE);
  const header = {
    id: Number(v.getBigUint64(0, true)),
    flags: v.getUint16(8, true),
    count: v.getUint16(10, true),
    overflow: v.getUint32(12, true),
  };
  if (header.id !== id) throw new BoltFormatError(`page ${id} carries the id ${header.id}`);
  const end = offset + (header.overflow + 1) * meta.pageSize;
  if (BigInt(id + header.overflow) >= meta.pgid || end > file.length) {
    throw new BoltFormatError(`page ${id} overflows past the end of the database`);
  }
  return { header, bytes: file.subarray(offset, end) };
}
