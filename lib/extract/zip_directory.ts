/**
 * A reader of a zip archive's central directory, for the first pass of an extraction (names, kinds and
 * declared sizes; no content). It reads the open file in bounded pieces through one reused buffer (the
 * directory of a huge archive is never in memory whole) and builds one small object per entry, where
 * `@zip.js/zip.js` reads the whole directory and builds several KiB of objects per entry.
 *
 * Layout (PKWARE APPNOTE 4.3.12–4.3.16, 4.5.3): the End Of Central Directory record (EOCD) closes the file,
 * possibly followed by a comment of up to 65535 bytes; ZIP64 archives put a ZIP64 EOCD record and its
 * locator right before it. Names decode as zip.js decodes them (./zip_names.ts). Damage of any kind is a
 * {@link ZipFormatError} (400): the walk is linear within the declared directory, so it always ends.
 */
import { BadRequestError } from "../errors.ts";
import { decodeZipName, unicodePathName } from "./zip_names.ts";

/** Random reads of an archive. */
export interface RandomAccess {
  readonly size: number;
  /** Fills `into` from `position` on; returns how many bytes were read (fewer only at the end). */
  readAt(into: Uint8Array, position: number): Promise<number>;
}

/** {@link RandomAccess} over an open file; reads run one after the other (each is a seek and reads). */
export function fileAccess(file: Deno.FsFile, size: number): RandomAccess {
  const readAt = async (into: Uint8Array, position: number): Promise<number> => {
    await file.seek(position, Deno.SeekMode.Start);
    let filled = 0;
    while (filled < into.length) {
      const n = await file.read(into.subarray(filled));
      if (n === null) break;
      filled += n;
    }
    return filled;
  };
  let last: Promise<unknown> = Promise.resolve();
  return {
    size,
    readAt(into, position) {
      const read = last.then(() => readAt(into, position));
      last = read.catch(() => {});
      return read;
    },
  };
}

/** One entry of the central directory. */
export interface ZipDirectoryEntry {
  name: string;
  directory: boolean;
  /** A Unix symlink (its target is the content). */
  symlink: boolean;
  /** Unix mode: the upper 16 bits of the external attributes (0 from writers that set none). */
  mode: number;
  externalAttributes: number;
  uncompressedSize: number;
  compressedSize: number;
  crc32: number;
  /** Compression method (0 stored, 8 deflate, …). */
  method: number;
  /** Where the entry's local header is, corrected for data prepended to the archive. */
  localHeaderOffset: number;
  encrypted: boolean;
  /** Last modification, ms since the epoch: NTFS or Unix extra field, else the DOS time (local time). */
  modified: number;
}

/** A damaged or unsupported zip archive (400). */
export class ZipFormatError extends BadRequestError {
  constructor(detail: string) {
    super(`Cannot extract: the zip archive is damaged or unsupported (${detail})`, { code: "bad_archive" });
  }
}

const EOCD_SIG = 0x06054b50;
const EOCD_LEN = 22;
const LOCATOR_SIG = 0x07064b50;
const LOCATOR_LEN = 20;
const EOCD64_SIG = 0x06064b50;
const EOCD64_LEN = 56;
const CENTRAL_SIG = 0x02014b50;
const CENTRAL_LEN = 46;
const DIGITAL_SIGNATURE_SIG = 0x05054b50;
const LOCAL_LEN = 30;
const MAX_COMMENT = 0xffff;
const U16 = 0xffff;
const U32 = 0xffffffff;
const UNICODE_PATH = 0x7075;
const EXTENDED_TIMESTAMP = 0x5455;
const NTFS_TIMES = 0x000a;
/** Milliseconds from 1601-01-01 (NTFS) to 1970-01-01. */
const NTFS_EPOCH_MS = 11_644_473_600_000;
const ZIP64_EXTRA = 0x0001;
/** Candidate end records checked for a reachable directory before giving up. */
const MAX_PROBES = 64;
/** Directory bytes read at a time (an entry larger than this grows the buffer, up to 192 KiB). */
const CHUNK = 64 * 1024;

/** Where the directory lies. */
interface Bounds {
  start: number;
  end: number;
  /** Declared entries. */
  count: number;
  zip64: boolean;
  /** Bytes prepended to the archive after it was written (self-extractors): added to every offset. */
  shift: number;
  /** The record's comment ends the file (nothing appended). */
  reachesEnd?: boolean;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function u64(v: DataView, at: number, what: string): number {
  const value = v.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipFormatError(`${what} out of range`);
  return Number(value);
}

async function readExactly(src: RandomAccess, position: number, length: number): Promise<Uint8Array | null> {
  if (position < 0 || position + length > src.size) return null;
  const out = new Uint8Array(length);
  return (await src.readAt(out, position)) === length ? out : null;
}

async function signatureAt(src: RandomAccess, position: number): Promise<number> {
  const bytes = await readExactly(src, position, 4);
  return bytes === null ? -1 : view(bytes).getUint32(0, true);
}

/** Finds the EOCD record, searching back over a possible comment, and reads where the directory is. */
async function locate(src: RandomAccess): Promise<Bounds> {
  if (src.size < EOCD_LEN) throw new ZipFormatError("too small to be a zip archive");
  const tailLength = Math.min(src.size, EOCD_LEN + MAX_COMMENT);
  const tailStart = src.size - tailLength;
  const tail = await readExactly(src, tailStart, tailLength);
  if (tail === null) throw new ZipFormatError("the archive cannot be read");
  const tv = view(tail);
  // A record whose comment ends the file wins over one followed by other data (appended after writing),
  // and one that leads to a directory over one of an empty archive (a comment may hide such a record); two
  // that both lead to a directory make the archive ambiguous, as zip.js says too.
  let exact: Bounds | null = null;
  let other: Bounds | null = null;
  let probes = 0;
  for (let i = tailLength - EOCD_LEN; i >= 0 && probes < MAX_PROBES; i--) {
    if (tv.getUint32(i, true) !== EOCD_SIG) continue;
    probes++;
    const reachesEnd = i + EOCD_LEN + tv.getUint16(i + 20, true) === tailLength;
    const bounds = await boundsOf(src, tail.subarray(i, i + EOCD_LEN), tailStart + i).catch((err) => {
      if (err instanceof ZipFormatError) return null;
      throw err;
    });
    if (bounds === null) continue;
    if (reachesEnd && bounds.count > 0) {
      if (exact !== null) throw new ZipFormatError("two end of central directory records");
      exact = bounds;
    } else if (other === null || (reachesEnd && other.count === 0 && !other.reachesEnd)) {
      other = { ...bounds, reachesEnd };
    }
  }
  const found = exact ?? other;
  if (found !== null) return found;
  // Nothing usable: say why, from the record nearest the end.
  for (let i = tailLength - EOCD_LEN; i >= 0; i--) {
    if (tv.getUint32(i, true) === EOCD_SIG) {
      return await boundsOf(src, tail.subarray(i, i + EOCD_LEN), tailStart + i);
    }
  }
  throw new ZipFormatError("no end of central directory record");
}

/** Reads the directory's bounds from the EOCD record at `at` (and the ZIP64 records it points to). */
async function boundsOf(src: RandomAccess, eocd: Uint8Array, at: number): Promise<Bounds> {
  const ev = view(eocd);
  let disk = ev.getUint16(4, true);
  let count = ev.getUint16(10, true);
  let size = ev.getUint32(12, true);
  let offset = ev.getUint32(16, true);
  let limit = at;
  let shift = 0;
  const zip64 = count === U16 || size === U32 || offset === U32 || disk === U16;
  if (zip64) {
    const locator = await readExactly(src, at - LOCATOR_LEN, LOCATOR_LEN);
    if (locator === null || view(locator).getUint32(0, true) !== LOCATOR_SIG) {
      throw new ZipFormatError("the ZIP64 end of central directory locator is missing");
    }
    const lv = view(locator);
    if (lv.getUint32(16, true) > 1) throw new ZipFormatError("split archives are not supported");
    const stored = u64(lv, 8, "the ZIP64 end record offset");
    // Right before the locator, unless the record carries extensible data (then trust the stored offset).
    const expected = at - LOCATOR_LEN - EOCD64_LEN;
    let recordAt = stored;
    if (await signatureAt(src, stored) !== EOCD64_SIG) {
      if (expected < stored || await signatureAt(src, expected) !== EOCD64_SIG) {
        throw new ZipFormatError("the ZIP64 end of central directory record is missing");
      }
      recordAt = expected;
      shift = expected - stored;
    }
    const record = await readExactly(src, recordAt, EOCD64_LEN);
    if (record === null || recordAt + EOCD64_LEN > at - LOCATOR_LEN) {
      throw new ZipFormatError("the ZIP64 end of central directory record is truncated");
    }
    const rv = view(record);
    disk = rv.getUint32(16, true);
    count = u64(rv, 32, "the entry count");
    size = u64(rv, 40, "the central directory size");
    offset = u64(rv, 48, "the central directory offset") + shift;
    limit = recordAt;
  }
  if (disk !== 0) throw new ZipFormatError("split archives are not supported");
  if (size > limit) throw new ZipFormatError("the central directory is larger than the archive");
  if (count > Math.floor(size / CENTRAL_LEN)) {
    throw new ZipFormatError(`${count} entries cannot fit a central directory of ${size} bytes`);
  }
  if (count === 0 && size === 0) return { start: limit, end: limit, count, zip64, shift };
  if (offset + size <= limit && await signatureAt(src, offset) === CENTRAL_SIG) {
    return { start: offset, end: offset + size, count, zip64, shift };
  }
  // Data prepended after the archive was written moves the directory to right before the end records.
  const expected = limit - size;
  if (!zip64 && expected > offset && await signatureAt(src, expected) === CENTRAL_SIG) {
    return { start: expected, end: limit, count, zip64, shift: expected - offset };
  }
  throw new ZipFormatError("the central directory is not where the end record says");
}

/** The entries of the zip read through `src`, in directory order. */
export async function* readZipDirectory(
  src: RandomAccess,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<ZipDirectoryEntry> {
  const { start, end, count, zip64, shift } = await locate(src);
  let buf = new Uint8Array(Math.min(CHUNK, Math.max(CENTRAL_LEN, end - start)));
  let bv = view(buf);
  let bufAt = start;
  let bufLength = 0;
  let pos = start;
  let entries = 0;
  /** Makes `need` bytes from `pos` available in the buffer; returns their index there. */
  const fill = async (need: number): Promise<number> => {
    if (pos + need > end) throw new ZipFormatError(`entry ${entries + 1} runs past the central directory`);
    if (need > buf.length) {
      buf = new Uint8Array(need);
      bv = view(buf);
    }
    const length = Math.min(buf.length, end - pos);
    bufLength = await src.readAt(buf.subarray(0, length), pos);
    bufAt = pos;
    if (bufLength < need) throw new ZipFormatError("the archive ends inside its central directory");
    return 0;
  };
  while (pos < end) {
    options.signal?.throwIfAborted();
    let o = pos - bufAt;
    if (o < 0 || o + CENTRAL_LEN > bufLength) o = await fill(Math.min(CENTRAL_LEN, end - pos));
    if (end - pos < CENTRAL_LEN || bv.getUint32(o, true) !== CENTRAL_SIG) {
      // A digital signature record may close the directory; anything else is damage.
      if (end - pos >= 6 && bv.getUint32(o, true) === DIGITAL_SIGNATURE_SIG) {
        if (pos + 6 + bv.getUint16(o + 4, true) === end) break;
      }
      throw new ZipFormatError(`no central directory header for entry ${entries + 1}`);
    }
    const record = CENTRAL_LEN + bv.getUint16(o + 28, true) + bv.getUint16(o + 30, true) +
      bv.getUint16(o + 32, true);
    if (o + record > bufLength) o = await fill(record);
    entries++;
    yield entryAt(buf, bv, o, start, shift, entries);
    pos += record;
  }
  // Writers without ZIP64 support store the count modulo 65536 (zip.js accepts that too).
  if (entries !== count && (zip64 || entries < count || (entries - count) % 0x10000 !== 0)) {
    throw new ZipFormatError(
      `the end record declares ${count} entries, the central directory has ${entries}`,
    );
  }
}

/** Parses the central directory header at `o` (the whole record is in `buf`). */
function entryAt(
  buf: Uint8Array,
  bv: DataView,
  o: number,
  directoryStart: number,
  shift: number,
  index: number,
): ZipDirectoryEntry {
  const madeBy = bv.getUint16(o + 4, true);
  const flags = bv.getUint16(o + 8, true);
  const nameLength = bv.getUint16(o + 28, true);
  const extraLength = bv.getUint16(o + 30, true);
  const external = bv.getUint32(o + 38, true);
  let uncompressedSize = bv.getUint32(o + 24, true);
  let compressedSize = bv.getUint32(o + 20, true);
  let localHeaderOffset = bv.getUint32(o + 42, true);
  const raw = buf.subarray(o + CENTRAL_LEN, o + CENTRAL_LEN + nameLength);
  const utf8Flag = (flags & 0x800) !== 0;
  // Extra fields: the last one of a type counts (as in zip.js); a field's data stops at the extra area's end.
  const extraEnd = o + CENTRAL_LEN + nameLength + extraLength;
  let zip64At = -1;
  let zip64End = -1;
  let unicodeAt = -1;
  let unicodeEnd = -1;
  let modified = NaN;
  for (let at = o + CENTRAL_LEN + nameLength; at + 4 <= extraEnd;) {
    const type = bv.getUint16(at, true);
    const dataEnd = Math.min(extraEnd, at + 4 + bv.getUint16(at + 2, true));
    if (type === ZIP64_EXTRA) [zip64At, zip64End] = [at + 4, dataEnd];
    else if (type === UNICODE_PATH) [unicodeAt, unicodeEnd] = [at + 4, dataEnd];
    else if (type === EXTENDED_TIMESTAMP && dataEnd - at >= 9 && Number.isNaN(modified)) {
      modified = bv.getInt32(at + 5, true) * 1000;
    } else if (type === NTFS_TIMES && dataEnd - at >= 36 && bv.getUint16(at + 8, true) === 1) {
      // Reserved (4), then attribute 1 of 24 bytes: modification, access and creation times.
      if (bv.getUint16(at + 10, true) === 24) {
        modified = Number(bv.getBigUint64(at + 12, true) / 10_000n) - NTFS_EPOCH_MS;
      }
    }
    at = dataEnd;
  }
  const name =
    (unicodeAt >= 0 ? unicodePathName(buf.subarray(unicodeAt, unicodeEnd), raw, utf8Flag) : null) ??
      decodeZipName(raw, utf8Flag);
  // ZIP64 values follow in this order, each present only when its 32-bit field is saturated. An entry
  // without the field keeps the 32-bit value (as zip.js does); the size checks apply to it as declared.
  if (zip64At >= 0) {
    let at = zip64At;
    const take = (what: string): number => {
      if (at + 8 > zip64End) throw new ZipFormatError(`the ZIP64 field of ${JSON.stringify(name)} is short`);
      const value = u64(bv, at, what);
      at += 8;
      return value;
    };
    if (uncompressedSize === U32) uncompressedSize = take("a size");
    if (compressedSize === U32) compressedSize = take("a size");
    if (localHeaderOffset === U32) localHeaderOffset = take("an offset");
  }
  localHeaderOffset += shift;
  if (localHeaderOffset < 0 || localHeaderOffset + LOCAL_LEN + compressedSize > directoryStart) {
    throw new ZipFormatError(`entry ${index} (${JSON.stringify(name)}) lies past the central directory`);
  }
  if (Number.isNaN(modified)) modified = dosTime(bv.getUint16(o + 14, true), bv.getUint16(o + 12, true));
  const type = (external >>> 16) & 0o170000;
  return {
    name,
    directory: type === 0o040000 || ((madeBy >> 8) === 0 && (external & 0x10) !== 0) || name.endsWith("/"),
    symlink: type === 0o120000,
    mode: external >>> 16,
    externalAttributes: external,
    uncompressedSize,
    compressedSize,
    crc32: bv.getUint32(o + 16, true),
    method: bv.getUint16(o + 10, true),
    localHeaderOffset,
    encrypted: (flags & 1) !== 0,
    modified,
  };
}

/** A DOS date and time (local time, 2-second steps) in ms since the epoch. */
function dosTime(date: number, time: number): number {
  return new Date(
    1980 + (date >> 9),
    ((date >> 5) & 0xf) - 1,
    date & 0x1f,
    time >> 11,
    (time >> 5) & 0x3f,
    (time & 0x1f) * 2,
  ).getTime();
}
