/**
 * The content of one zip entry, found through its local header and checked against its central directory
 * record: stored or deflated (DecompressionStream "deflate-raw"), cut off as soon as it passes the declared
 * size, and at the end compared with that size and the CRC-32. Every failure is a 400 (bad_archive).
 */
import { crc32Js as crc32 } from "../archive/crc_table.ts";
import { type RandomAccess, type ZipDirectoryEntry, ZipFormatError } from "./zip_directory.ts";

const LOCAL_SIG = 0x04034b50;
const LOCAL_LEN = 30;
/** Bytes read from the archive at a time. */
const READ_CHUNK = 64 * 1024;
const STORED = 0;
const DEFLATED = 8;

/**
 * Refuses a file entry whose content we cannot read (encrypted, or neither stored nor deflated). Called for every
 * entry by the first pass too, so such an archive is refused before anything is written.
 */
export function assertReadable(entry: ZipDirectoryEntry): void {
  if (entry.directory || entry.symlink) return;
  const label = JSON.stringify(entry.name);
  if (entry.encrypted) throw new ZipFormatError(`entry ${label} is encrypted`);
  if (entry.method !== STORED && entry.method !== DEFLATED) {
    throw new ZipFormatError(`entry ${label} uses compression method ${entry.method}`);
  }
}

/** The checked content of `entry` (a file: not a folder or link). */
export function zipEntryContent(
  src: RandomAccess,
  entry: ZipDirectoryEntry,
  signal?: AbortSignal,
): ReadableStream<Uint8Array> {
  assertReadable(entry);
  const label = JSON.stringify(entry.name);
  let pos = -1;
  let end = -1;
  const raw = new ReadableStream<Uint8Array>({
    async pull(controller) {
      signal?.throwIfAborted();
      if (pos < 0) {
        const header = new Uint8Array(LOCAL_LEN);
        const n = await src.readAt(header, entry.localHeaderOffset);
        const hv = new DataView(header.buffer);
        if (n < LOCAL_LEN || hv.getUint32(0, true) !== LOCAL_SIG) {
          throw new ZipFormatError(`entry ${label} has no local header`);
        }
        pos = entry.localHeaderOffset + LOCAL_LEN + hv.getUint16(26, true) + hv.getUint16(28, true);
        end = pos + entry.compressedSize;
        if (end > src.size) throw new ZipFormatError(`entry ${label} runs past the end of the archive`);
      }
      if (pos >= end) return controller.close();
      const chunk = new Uint8Array(Math.min(READ_CHUNK, end - pos));
      const n = await src.readAt(chunk, pos);
      if (n < chunk.length) throw new ZipFormatError(`entry ${label} is cut short`);
      pos += n;
      controller.enqueue(chunk);
    },
  });
  let crc = 0;
  let size = 0;
  const check = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.length;
      if (size > entry.uncompressedSize) {
        throw new ZipFormatError(`entry ${label} is larger than the archive says`);
      }
      crc = crc32(crc, chunk);
      controller.enqueue(chunk);
    },
    flush() {
      if (size !== entry.uncompressedSize) {
        throw new ZipFormatError(`entry ${label} is smaller than the archive says`);
      }
      if (crc !== entry.crc32) throw new ZipFormatError(`entry ${label} fails its CRC-32 check`);
    },
  });
  const inflated = entry.method === DEFLATED
    ? raw.pipeThrough(new DecompressionStream("deflate-raw") as TransformStream<Uint8Array, Uint8Array>)
    : raw;
  return inflated.pipeThrough(check);
}
