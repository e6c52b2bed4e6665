/** Test helpers: hand-made (also hostile) tar and zip archives. */
import { BlobWriter, Uint8ArrayReader, ZipWriter } from "@zip.js/zip.js";
import { crc32 } from "../archive/crc.ts";
import { BLOCK } from "../archive/tar.ts";
import { concatBytes } from "../archive/_testing.ts";
import { type EventHooks, noopHooks } from "../hooks.ts";
import type { FsRequest } from "../fs/request.ts";
import type { StoredUser } from "../types.ts";

/** A file-system request of a user with create and modify on the whole of `root`, no rules (for extractions). */
export function extractRequest(root: string, hooks: EventHooks = noopHooks): FsRequest {
  const user = {
    scope: "/",
    perm: { create: true, modify: true },
    rules: [],
    hideDotfiles: false,
  } as unknown as StoredUser;
  return {
    gate: { root, user, globalRules: [], followExternalSymlinks: false, foldCase: false },
    user,
    hooks,
  };
}

const enc = new TextEncoder();

/** One raw tar entry; the name is written as given (no sanitising). */
export interface RawTarEntry {
  name: string;
  /** Type flag: "0" file (default), "5" folder, "1" hard link, "2" symlink, "x" PAX header. */
  type?: string;
  data?: string | Uint8Array;
  link?: string;
  /** Declared size instead of the data's length (bombs). */
  size?: number;
}

function field(out: Uint8Array, at: number, length: number, text: string): void {
  out.set(enc.encode(text).subarray(0, length), at);
}

function octal(out: Uint8Array, at: number, length: number, value: number): void {
  field(out, at, length - 1, value.toString(8).padStart(length - 1, "0"));
}

function header(entry: RawTarEntry, size: number): Uint8Array {
  const out = new Uint8Array(BLOCK);
  field(out, 0, 100, entry.name);
  octal(out, 100, 8, 0o644);
  octal(out, 108, 8, 0);
  octal(out, 116, 8, 0);
  octal(out, 124, 12, size);
  octal(out, 136, 12, 1_700_000_000);
  out.fill(0x20, 148, 156);
  out[156] = (entry.type ?? "0").charCodeAt(0);
  field(out, 157, 100, entry.link ?? "");
  field(out, 257, 8, "ustar\x0000");
  let sum = 0;
  for (const b of out) sum += b;
  field(out, 148, 7, sum.toString(8).padStart(6, "0") + "\0");
  return out;
}

/** A PAX record `"<len> key=value\n"`. */
export function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = enc.encode(body).length + 1;
  while (String(length).length + enc.encode(body).length !== length) {
    length = String(length).length + enc.encode(body).length;
  }
  return `${length}${body}`;
}

/** A tar archive of the raw entries (with the end-of-archive blocks). */
export function tarOf(entries: RawTarEntry[]): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  for (const entry of entries) {
    const data = typeof entry.data === "string" ? enc.encode(entry.data) : entry.data ?? new Uint8Array(0);
    parts.push(header(entry, entry.size ?? data.length), data);
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
    parts.push(new Uint8Array(pad));
  }
  parts.push(new Uint8Array(2 * BLOCK));
  return concatBytes(parts);
}

/** One zip entry; `mode` sets the Unix mode (0o120777 makes a symlink whose target is the data). */
export interface RawZipEntry {
  name: string;
  data?: string | Uint8Array;
  mode?: number;
  dir?: boolean;
}

/** A deflated zip of the entries, names written as given. */
export async function zipOf(entries: RawZipEntry[]): Promise<Uint8Array> {
  const writer = new ZipWriter(new BlobWriter("application/zip"), { useWebWorkers: false });
  for (const e of entries) {
    const data = typeof e.data === "string" ? enc.encode(e.data) : e.data ?? new Uint8Array(0);
    await writer.add(e.name, e.dir ? undefined : new Uint8ArrayReader(data), {
      directory: e.dir,
      ...(e.mode !== undefined ? { unixMode: e.mode, msDosCompatible: false } : {}),
    });
  }
  return new Uint8Array(await (await writer.close()).arrayBuffer());
}

/** Rewrites the uncompressed size that the central directory gives every entry (a lying zip). */
export function patchZipSizes(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i + 46 <= out.length; i++) {
    if (view.getUint32(i, true) === 0x02014b50) view.setUint32(i + 24, size, true);
  }
  return out;
}

/** Entry names that must never be written (each is refused as hostile), for readers of every format. */
export const HOSTILE_ENTRY_NAMES: string[] = [
  "../../x.txt",
  "ok/../../../x.txt",
  "/etc/x.txt",
  "..\\..\\x.txt",
  "C:/x.txt",
  "c:evil",
  "\\\\server\\share\\x.txt",
  "a/..",
  "..",
];

/** Odd but harmless names (skipped or written as they are; readers must agree on them). */
export const ODD_ENTRY_NAMES: string[] = [
  "bad\u0001name.txt",
  "cr\rlf.txt",
  "tab\there",
  "\u00e9t\u00e9/caf\u00e9.txt",
  "\u{1f600}.txt",
  "\ufeffbom.txt",
  "./dot/./x",
  "trailing/",
  "a//b",
  "nul\u0000x",
];

/** One stored (uncompressed) entry of {@link rawZip}: every field as given, nothing sanitised. */
export interface RawZipFile {
  /** A string is written as UTF-8; bytes as they are. */
  name: string | Uint8Array;
  data?: string | Uint8Array;
  /** General-purpose flags (0x800: the name is UTF-8; 1: encrypted). */
  flags?: number;
  /** Extra fields of the central directory header (after the ZIP64 field when `zip64` is set). */
  extra?: Uint8Array;
  /** "Version made by": 0x031e (Unix) unless given; 0x0014 is MS-DOS. */
  madeBy?: number;
  /** External attributes; default: a regular file, mode 0644. */
  external?: number;
}

/** Where {@link rawZip} put its records (to damage them in tests). */
export interface RawZip {
  bytes: Uint8Array;
  /** Offset of the first central directory header. */
  directory: number;
  /** Offset of the End Of Central Directory record. */
  eocd: number;
  /** Offset of the ZIP64 end record, or -1. */
  eocd64: number;
}

/** A zip of stored entries, written byte by byte (for odd names, ZIP64 and damage). */
export function rawZip(
  files: RawZipFile[],
  options: { zip64?: boolean; comment?: string | Uint8Array; prepend?: Uint8Array } = {},
): RawZip {
  const bytes = (v: string | Uint8Array | undefined) =>
    typeof v === "string" ? enc.encode(v) : v ?? new Uint8Array(0);
  const parts: Uint8Array[] = [];
  let at = 0;
  const push = (part: Uint8Array) => {
    parts.push(part);
    at += part.length;
  };
  const record = (length: number, fill: (v: DataView) => void) => {
    const out = new Uint8Array(length);
    fill(new DataView(out.buffer));
    return out;
  };
  const central: Uint8Array[] = [];
  for (const file of files) {
    const name = bytes(file.name);
    const data = bytes(file.data);
    const crc = crc32(0, data);
    const offset = at;
    const flags = file.flags ?? 0;
    push(record(30, (v) => {
      v.setUint32(0, 0x04034b50, true);
      v.setUint16(4, 20, true);
      v.setUint16(6, flags, true);
      v.setUint32(14, crc, true);
      v.setUint32(18, data.length, true);
      v.setUint32(22, data.length, true);
      v.setUint16(26, name.length, true);
    }));
    push(name);
    push(data);
    const z64 = options.zip64
      ? record(28, (v) => {
        v.setUint16(0, 1, true);
        v.setUint16(2, 24, true);
        v.setBigUint64(4, BigInt(data.length), true);
        v.setBigUint64(12, BigInt(data.length), true);
        v.setBigUint64(20, BigInt(offset), true);
      })
      : new Uint8Array(0);
    const extra = new Uint8Array([...z64, ...bytes(file.extra)]);
    const small = (n: number) => options.zip64 ? 0xffffffff : n;
    central.push(
      record(46, (v) => {
        v.setUint32(0, 0x02014b50, true);
        v.setUint16(4, file.madeBy ?? 0x031e, true);
        v.setUint16(6, options.zip64 ? 45 : 20, true);
        v.setUint16(8, flags, true);
        v.setUint32(16, crc, true);
        v.setUint32(20, small(data.length), true);
        v.setUint32(24, small(data.length), true);
        v.setUint16(28, name.length, true);
        v.setUint16(30, extra.length, true);
        v.setUint32(38, file.external ?? (0o100644 << 16) >>> 0, true);
        v.setUint32(42, small(offset), true);
      }),
      name,
      extra,
    );
  }
  const directory = at;
  for (const part of central) push(part);
  const size = at - directory;
  let eocd64 = -1;
  if (options.zip64) {
    eocd64 = at;
    push(record(56, (v) => {
      v.setUint32(0, 0x06064b50, true);
      v.setBigUint64(4, 44n, true);
      v.setUint16(12, 45, true);
      v.setBigUint64(24, BigInt(files.length), true);
      v.setBigUint64(32, BigInt(files.length), true);
      v.setBigUint64(40, BigInt(size), true);
      v.setBigUint64(48, BigInt(directory), true);
    }));
    push(record(20, (v) => {
      v.setUint32(0, 0x07064b50, true);
      v.setBigUint64(8, BigInt(eocd64), true);
      v.setUint32(16, 1, true);
    }));
  }
  const comment = bytes(options.comment);
  const eocd = at;
  push(record(22, (v) => {
    v.setUint32(0, 0x06054b50, true);
    v.setUint16(8, options.zip64 ? 0xffff : files.length & 0xffff, true);
    v.setUint16(10, options.zip64 ? 0xffff : files.length & 0xffff, true);
    v.setUint32(12, options.zip64 ? 0xffffffff : size, true);
    v.setUint32(16, options.zip64 ? 0xffffffff : directory, true);
    v.setUint16(20, comment.length, true);
  }));
  push(comment);
  const prepend = options.prepend ?? new Uint8Array(0);
  const out = new Uint8Array(prepend.length + at);
  out.set(prepend);
  let pos = prepend.length;
  for (const part of parts) {
    out.set(part, pos);
    pos += part.length;
  }
  const shift = prepend.length;
  return {
    bytes: out,
    directory: directory + shift,
    eocd: eocd + shift,
    eocd64: eocd64 < 0 ? -1 : eocd64 + shift,
  };
}

/** An Info-ZIP Unicode Path extra field (0x7075) naming `name` for the raw name `raw`. */
export function unicodePathField(name: string, raw: Uint8Array, crc = crc32(0, raw)): Uint8Array {
  const text = enc.encode(name);
  const out = new Uint8Array(9 + text.length);
  const v = new DataView(out.buffer);
  v.setUint16(0, 0x7075, true);
  v.setUint16(2, 5 + text.length, true);
  out[4] = 1;
  v.setUint32(5, crc, true);
  out.set(text, 9);
  return out;
}
