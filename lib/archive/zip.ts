/**
 * Streaming ZIP writer (APPNOTE 6.3): store or deflate, data descriptors, UTF-8 names, ZIP64.
 * Only the central directory (a few dozen bytes per entry) is kept in memory.
 */
import { log } from "../log.ts";
import { crc32 } from "./crc.ts";
import { type ArchiveEntry, copyContent, copyEntry, entryFailure, permissionBits } from "./entry.ts";
import { prepareEntries } from "./prefetch.ts";
import { ChunkBuffer } from "./stream.ts";

/** Options of the ZIP writer. */
export interface ZipOptions {
  signal?: AbortSignal;
  /** "store" (default, fastest) or "deflate". */
  method?: "store" | "deflate";
  /** Test hook: write ZIP64 records for every entry and the end of central directory. */
  forceZip64?: boolean;
}

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
// Entries at least this large (by stat) get ZIP64 local headers; the margin covers deflate's
// worst-case expansion and a file growing while it is read.
const ZIP64_ENTRY_THRESHOLD = 0xf0000000;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const VERSION_ZIP64 = 45;
const VERSION_DEFAULT = 20;
const VERSION_MADE_BY = (3 << 8) | VERSION_ZIP64; // 3 = Unix: external attributes carry the mode
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;

interface CentralRecord {
  name: Uint8Array;
  flags: number;
  method: number;
  zip64: boolean;
  crc: number;
  compressed: number;
  uncompressed: number;
  offset: number;
  dosTime: number;
  dosDate: number;
  unixTime: number;
  externalAttributes: number;
}

const encoder = new TextEncoder();

function setUint64(view: DataView, at: number, value: number): void {
  view.setUint32(at, value % 0x100000000, true);
  view.setUint32(at + 4, Math.floor(value / 0x100000000), true);
}

/** DOS date and time in local time (the zip convention), clamped to 1980..2107. */
function dosDateTime(date: Date): { dosTime: number; dosDate: number } {
  const ms = date.getTime();
  const d = Number.isFinite(ms) ? date : new Date(0);
  const year = d.getFullYear();
  if (year < 1980) return { dosTime: 0, dosDate: (1 << 5) | 1 };
  if (year > 2107) return { dosTime: (23 << 11) | (59 << 5) | 29, dosDate: (127 << 9) | (12 << 5) | 31 };
  return {
    dosTime: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    dosDate: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

function unixSeconds(date: Date): number {
  const s = Math.floor(date.getTime() / 1000);
  if (!Number.isFinite(s)) return 0;
  return Math.min(Math.max(s, -0x80000000), 0x7fffffff);
}

function localHeader(record: CentralRecord): Uint8Array {
  const extraLength = 9 + (record.zip64 ? 20 : 0);
  const out = new Uint8Array(30 + record.name.length + extraLength);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x04034b50, true);
  v.setUint16(4, record.zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, true);
  v.setUint16(6, record.flags, true);
  v.setUint16(8, record.method, true);
  v.setUint16(10, record.dosTime, true);
  v.setUint16(12, record.dosDate, true);
  // CRC and sizes are zero here and follow in the data descriptor (flag bit 3); a ZIP64 entry
  // marks both sizes 0xffffffff and carries a ZIP64 extra field, as APPNOTE 4.5.3 requires.
  if (record.zip64) {
    v.setUint32(18, MAX32, true);
    v.setUint32(22, MAX32, true);
  }
  v.setUint16(26, record.name.length, true);
  v.setUint16(28, extraLength, true);
  out.set(record.name, 30);
  let at = 30 + record.name.length;
  at = writeTimestampExtra(v, at, record.unixTime);
  if (record.zip64) {
    v.setUint16(at, 0x0001, true);
    v.setUint16(at + 2, 16, true); // two zero sizes: the real ones are in the descriptor
  }
  return out;
}

function writeTimestampExtra(v: DataView, at: number, unixTime: number): number {
  v.setUint16(at, 0x5455, true); // "UT" extended timestamp
  v.setUint16(at + 2, 5, true);
  v.setUint8(at + 4, 1); // mtime present
  v.setInt32(at + 5, unixTime, true);
  return at + 9;
}

function dataDescriptor(record: CentralRecord): Uint8Array {
  const out = new Uint8Array(record.zip64 ? 24 : 16);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x08074b50, true);
  v.setUint32(4, record.crc, true);
  if (record.zip64) {
    setUint64(v, 8, record.compressed);
    setUint64(v, 16, record.uncompressed);
  } else {
    v.setUint32(8, record.compressed, true);
    v.setUint32(12, record.uncompressed, true);
  }
  return out;
}

function centralHeader(record: CentralRecord, forceZip64: boolean): Uint8Array {
  // ZIP64 extra fields appear in this fixed order, and only for values set to 0xffffffff.
  const big = [
    record.zip64 || record.uncompressed >= MAX32 ? record.uncompressed : -1,
    record.zip64 || record.compressed >= MAX32 ? record.compressed : -1,
    forceZip64 || record.offset >= MAX32 ? record.offset : -1,
  ];
  const zip64Values = big.filter((x) => x >= 0);
  const zip64Length = zip64Values.length > 0 ? 4 + 8 * zip64Values.length : 0;
  const extraLength = 9 + zip64Length;
  const out = new Uint8Array(46 + record.name.length + extraLength);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x02014b50, true);
  v.setUint16(4, VERSION_MADE_BY, true);
  v.setUint16(6, zip64Length > 0 ? VERSION_ZIP64 : VERSION_DEFAULT, true);
  v.setUint16(8, record.flags, true);
  v.setUint16(10, record.method, true);
  v.setUint16(12, record.dosTime, true);
  v.setUint16(14, record.dosDate, true);
  v.setUint32(16, record.crc, true);
  v.setUint32(20, big[1] >= 0 ? MAX32 : record.compressed, true);
  v.setUint32(24, big[0] >= 0 ? MAX32 : record.uncompressed, true);
  v.setUint16(28, record.name.length, true);
  v.setUint16(30, extraLength, true);
  // comment length, disk number start and internal attributes stay 0
  v.setUint32(38, record.externalAttributes, true);
  v.setUint32(42, big[2] >= 0 ? MAX32 : record.offset, true);
  out.set(record.name, 46);
  let at = writeTimestampExtra(v, 46 + record.name.length, record.unixTime);
  if (zip64Length > 0) {
    v.setUint16(at, 0x0001, true);
    v.setUint16(at + 2, zip64Length - 4, true);
    at += 4;
    for (const value of zip64Values) {
      setUint64(v, at, value);
      at += 8;
    }
  }
  return out;
}

function endOfCentralDirectory(
  count: number,
  size: number,
  offset: number,
  options: { forceZip64: boolean },
): Uint8Array {
  const zip64 = options.forceZip64 || count >= MAX16 || size >= MAX32 || offset >= MAX32;
  const out = new Uint8Array((zip64 ? 56 + 20 : 0) + 22);
  const v = new DataView(out.buffer);
  let at = 0;
  if (zip64) {
    v.setUint32(0, 0x06064b50, true);
    setUint64(v, 4, 44); // size of the rest of this record
    v.setUint16(12, VERSION_MADE_BY, true);
    v.setUint16(14, VERSION_ZIP64, true);
    setUint64(v, 24, count);
    setUint64(v, 32, count);
    setUint64(v, 40, size);
    setUint64(v, 48, offset);
    v.setUint32(56, 0x07064b50, true); // locator
    setUint64(v, 64, offset + size); // where the ZIP64 end record starts
    v.setUint32(72, 1, true);
    at = 76;
  }
  v.setUint32(at, 0x06054b50, true);
  v.setUint16(at + 8, zip64 ? MAX16 : count, true);
  v.setUint16(at + 10, zip64 ? MAX16 : count, true);
  v.setUint32(at + 12, zip64 ? MAX32 : size, true);
  v.setUint32(at + 16, zip64 ? MAX32 : offset, true);
  return out;
}

function countingStream(record: CentralRecord): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream({
    transform(chunk, controller) {
      record.crc = crc32(record.crc, chunk);
      record.uncompressed += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

function singleChunkStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** Yields the bytes of a ZIP archive of the entries, in batches; refused names are skipped. */
export async function* zipChunks(
  entries: AsyncIterable<ArchiveEntry>,
  options: ZipOptions = {},
): AsyncGenerator<Uint8Array<ArrayBuffer>[]> {
  const { signal } = options;
  const forceZip64 = options.forceZip64 ?? false;
  const deflate = options.method === "deflate";
  const out = new ChunkBuffer();
  // The central directory is kept as bytes, not objects: a few dozen bytes per entry.
  const central = new ChunkBuffer();
  let centralSize = 0;
  let count = 0;
  let offset = 0;
  for await (const prepared of prepareEntries(entries, { signal })) {
    const { entry, name: clean } = prepared;
    let { stream, bytes } = prepared;
    const isFile = stream !== null || bytes !== null;
    const name = encoder.encode(isFile ? clean : clean + "/");
    if (name.length > MAX16) {
      log.warn(`archive: skipping entry with a name over 64 KiB "${clean.slice(0, 80)}..."`);
      await stream?.cancel();
      continue;
    }
    const mode = permissionBits(entry);
    const record: CentralRecord = {
      name,
      flags: FLAG_UTF8 | (isFile ? FLAG_DESCRIPTOR : 0),
      method: deflate && isFile ? 8 : 0,
      zip64: isFile && (forceZip64 || entry.size >= ZIP64_ENTRY_THRESHOLD),
      crc: 0,
      compressed: 0,
      uncompressed: 0,
      offset,
      ...dosDateTime(entry.mtime),
      unixTime: unixSeconds(entry.mtime),
      // Unix mode in the high 16 bits; 0x10 is the MS-DOS directory attribute.
      externalAttributes: ((((entry.isDir ? S_IFDIR : S_IFREG) | mode) << 16) | (entry.isDir ? 0x10 : 0)) >>>
        0,
    };
    const header = localHeader(record);
    out.push(header);
    offset += header.length;
    if (bytes !== null && deflate) {
      // Deflate goes through the same stream path as every other file.
      stream = singleChunkStream(bytes.slice()); // a copy: the lent buffer is reused after this entry
      bytes = null;
    }
    if (bytes !== null) {
      // Read whole and stored: one CRC call and one copy into the output blocks.
      record.crc = crc32(0, bytes);
      record.uncompressed = record.compressed = bytes.length;
      out.write(bytes);
    } else if (stream !== null) {
      const source = deflate
        ? stream.pipeThrough(countingStream(record)).pipeThrough(
          new CompressionStream("deflate-raw") as TransformStream<Uint8Array, Uint8Array>,
        )
        : stream;
      yield* copyContent(
        clean,
        copyEntry(source, out, {
          signal,
          onData: (chunk) => {
            if (!deflate) {
              record.crc = crc32(record.crc, chunk);
              record.uncompressed += chunk.length;
            }
            record.compressed += chunk.length;
            if (!record.zip64 && (record.compressed >= MAX32 || record.uncompressed >= MAX32)) {
              throw new Error("it grew past 4 GiB while being read");
            }
          },
        }),
        signal,
      );
    }
    if (isFile) {
      if (record.uncompressed < entry.size) {
        // Like tar: an entry shorter than listed ends the archive rather than passing for complete.
        throw entryFailure(clean, new Error(`it shrank from ${entry.size} to ${record.uncompressed} bytes`));
      }
      const descriptor = dataDescriptor(record);
      out.push(descriptor);
      offset += record.compressed + descriptor.length;
    }
    const centralEntry = centralHeader(record, forceZip64);
    central.push(centralEntry);
    centralSize += centralEntry.length;
    count++;
    if (out.hasReady) yield out.take();
  }
  for (const block of central.flush()) {
    out.push(block);
    if (out.hasReady) yield out.take();
  }
  out.push(endOfCentralDirectory(count, centralSize, offset, { forceZip64 }));
  yield out.flush();
}
