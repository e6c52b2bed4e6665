/** Test helpers: hand-made (also hostile) tar and zip archives. */
import { BlobWriter, Uint8ArrayReader, ZipWriter } from "@zip.js/zip.js";
import { BLOCK } from "../archive/tar.ts";

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
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
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
