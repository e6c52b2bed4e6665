/**
 * Streaming tar writer: POSIX ustar headers, plus PAX extended headers for long or non-ASCII
 * names and for sizes of 8 GiB and more.
 */
import { type ArchiveEntry, copyContent, copyEntry, entryFailure, permissionBits } from "./entry.ts";
import { prepareEntries } from "./prefetch.ts";
import { ChunkBuffer } from "./stream.ts";

/** Options of the tar writer. */
export interface TarOptions {
  signal?: AbortSignal;
}

/** Size of a tar block (headers and data padding). */
export const BLOCK = 512;
// GNU tar and Python pad the archive to a 20-block record; some strict readers expect it.
const RECORD = 20 * BLOCK;
const MAX_OCTAL_11 = 8 ** 11 - 1; // largest value of a 12-byte octal field (8 GiB - 1)
const ZEROS = new Uint8Array(RECORD);
const encoder = new TextEncoder();

function writeString(out: Uint8Array, at: number, length: number, bytes: Uint8Array): void {
  out.set(bytes.subarray(0, length), at);
}

function writeOctal(out: Uint8Array, at: number, length: number, value: number): void {
  const digits = Math.floor(value).toString(8).padStart(length - 1, "0");
  writeString(out, at, length - 1, encoder.encode(digits));
}

/** Size field: octal when it fits, else GNU base-256 (readers that honour PAX use the record). */
function writeSize(out: Uint8Array, at: number, value: number): void {
  if (value <= MAX_OCTAL_11) return writeOctal(out, at, 12, value);
  out[at] = 0x80;
  let rest = value;
  for (let i = at + 11; i > at; i--) {
    out[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
}

/** Cuts UTF-8 bytes to at most `max` bytes without splitting a character. */
function truncateUtf8(bytes: Uint8Array, max: number): Uint8Array {
  if (bytes.length <= max) return bytes;
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

interface HeaderFields {
  name: Uint8Array;
  mode: number;
  size: number;
  mtime: number;
  type: string;
}

function header(fields: HeaderFields): Uint8Array {
  const out = new Uint8Array(BLOCK);
  writeString(out, 0, 100, truncateUtf8(fields.name, 100));
  writeOctal(out, 100, 8, fields.mode);
  writeOctal(out, 108, 8, 0); // uid
  writeOctal(out, 116, 8, 0); // gid
  writeSize(out, 124, fields.size);
  writeOctal(out, 136, 12, fields.mtime);
  out.fill(0x20, 148, 156); // checksum is computed with its own field as spaces
  out[156] = fields.type.charCodeAt(0);
  writeString(out, 257, 8, encoder.encode("ustar\x0000"));
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += out[i];
  writeString(out, 148, 7, encoder.encode(sum.toString(8).padStart(6, "0") + "\0"));
  return out;
}

/** One PAX record: "<length> <key>=<value>\n", where length counts the whole record. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyLength = encoder.encode(body).length;
  let length = bodyLength + 1;
  while (String(length).length + bodyLength !== length) length = String(length).length + bodyLength;
  return `${length}${body}`;
}

function padding(size: number): Uint8Array {
  const rest = size % BLOCK;
  return rest === 0 ? ZEROS.subarray(0, 0) : ZEROS.subarray(0, BLOCK - rest);
}

/** The header blocks of one entry (a PAX header first when needed). */
function entryHeaders(
  path: string,
  fields: { mode: number; size: number; mtime: number; type: string },
): Uint8Array[] {
  const name = encoder.encode(path);
  const records: string[] = [];
  // Non-ASCII names go through PAX so every reader decodes them as UTF-8.
  if (name.length > 100 || name.length !== path.length) records.push(paxRecord("path", path));
  if (fields.size > MAX_OCTAL_11) records.push(paxRecord("size", String(fields.size)));
  const blocks: Uint8Array[] = [];
  if (records.length > 0) {
    const data = encoder.encode(records.join(""));
    const base = path.replace(/\/$/, "").split("/").pop() ?? "";
    blocks.push(
      header({
        name: truncateUtf8(encoder.encode(`PaxHeaders/${base}`), 100),
        mode: 0o644,
        size: data.length,
        mtime: fields.mtime,
        type: "x",
      }),
      data,
      padding(data.length),
    );
  }
  blocks.push(header({ name, ...fields }));
  return blocks;
}

/** Yields the bytes of a tar archive of the entries, in batches; refused names are skipped. */
export async function* tarChunks(
  entries: AsyncIterable<ArchiveEntry>,
  options: TarOptions = {},
): AsyncGenerator<Uint8Array<ArrayBuffer>[]> {
  const { signal } = options;
  const out = new ChunkBuffer();
  let total = 0;
  for await (const { entry, name, stream, bytes } of prepareEntries(entries, { signal })) {
    const isFile = stream !== null || bytes !== null;
    const size = isFile ? Math.max(0, Math.floor(entry.size)) : 0;
    const mtime = Math.min(Math.max(0, Math.floor(entry.mtime.getTime() / 1000) || 0), MAX_OCTAL_11);
    const blocks = entryHeaders(isFile ? name : name + "/", {
      mode: permissionBits(entry),
      size,
      mtime,
      type: isFile ? "0" : "5",
    });
    for (const block of blocks) {
      out.push(block);
      total += block.length;
    }
    if (isFile) {
      // The header promised `size` bytes: a file that grew is cut; one that shrank ends the archive (padding
      // it would hand out a file that never existed).
      let written: number;
      if (bytes !== null) {
        written = Math.min(bytes.length, size);
        out.write(bytes.length > size ? bytes.subarray(0, size) : bytes);
      } else {
        written = yield* copyContent(name, copyEntry(stream!, out, { signal, limit: size }), signal);
      }
      if (written < size) throw entryFailure(name, new Error(`it shrank from ${size} to ${written} bytes`));
      out.push(padding(size));
      total += size + padding(size).length;
    }
    if (out.hasReady) yield out.take();
  }
  // End of archive: two zero blocks, then pad to a whole record.
  const end = total + 2 * BLOCK;
  out.push(ZEROS.subarray(0, 2 * BLOCK + (end % RECORD === 0 ? 0 : RECORD - (end % RECORD))));
  yield out.flush();
}
