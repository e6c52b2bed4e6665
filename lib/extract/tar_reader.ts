/**
 * Streaming tar reader: ustar (with the name prefix), PAX extended headers (`path`, `linkpath`, `size`;
 * global headers ignored), GNU long names and link names (`L`/`K`), GNU base-256 sizes. Content is handed
 * out as a stream of exactly the entry's size; whatever the consumer leaves unread is skipped.
 */
import { BLOCK } from "../archive/tar.ts";
import { BadRequestError } from "../errors.ts";
import { ByteSource } from "./byte_source.ts";
import type { ArchiveItem, ItemKind } from "./item.ts";

/** Longest PAX or GNU long-name record accepted (they are held in memory). */
const MAX_META = 1 << 20;

const decoder = new TextDecoder();

function corrupt(detail: string): BadRequestError {
  return new BadRequestError(`Cannot extract: the tar archive is damaged (${detail})`, {
    code: "bad_archive",
  });
}

function cString(block: Uint8Array, at: number, length: number): string {
  const field = block.subarray(at, at + length);
  const end = field.indexOf(0);
  return decoder.decode(end < 0 ? field : field.subarray(0, end));
}

function octal(block: Uint8Array, at: number, length: number): number {
  const text = cString(block, at, length).trim();
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text)) throw corrupt("bad number field");
  return parseInt(text, 8);
}

/** Size and mtime fields: octal, or GNU base-256 when the high bit of the first byte is set. */
function numeric(block: Uint8Array, at: number, length: number): number {
  if ((block[at] & 0x80) === 0) return octal(block, at, length);
  if (block[at] & 0x40) throw corrupt("negative number field");
  let value = block[at] & 0x3f;
  for (let i = at + 1; i < at + length; i++) value = value * 256 + block[i];
  if (!Number.isSafeInteger(value)) throw corrupt("number field too large");
  return value;
}

function isZeroBlock(block: Uint8Array): boolean {
  for (let i = 0; i < block.length; i++) if (block[i] !== 0) return false;
  return true;
}

function checksumOk(block: Uint8Array): boolean {
  const stored = octal(block, 148, 8);
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : block[i];
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  return stored === unsigned || stored === signed;
}

/** Parses PAX records (`<len> <key>=<value>\n`) into a map. */
export function parsePax(data: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    if (data[at] === 0) break;
    const space = data.indexOf(0x20, at);
    if (space < 0) throw corrupt("bad PAX record");
    const length = Number(decoder.decode(data.subarray(at, space)));
    if (!Number.isInteger(length) || length <= space - at + 1 || at + length > data.length) {
      throw corrupt("bad PAX record length");
    }
    const record = decoder.decode(data.subarray(space + 1, at + length - 1));
    const eq = record.indexOf("=");
    if (eq < 0) throw corrupt("bad PAX record");
    out.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return out;
}

function kindOf(type: string, name: string): ItemKind {
  switch (type) {
    case "0":
    case "\0":
    case "7":
      // Pre-POSIX archives mark folders with a trailing slash only.
      return name.endsWith("/") ? "dir" : "file";
    case "5":
      return "dir";
    case "1":
      return "hardlink";
    case "2":
      return "symlink";
    default:
      return "other";
  }
}

function padOf(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

/**
 * Yields the entries of a tar stream. The content stream of an entry is valid until the next entry is
 * requested; closing the generator cancels the input. Damaged headers throw a 400.
 */
export async function* readTar(
  input: ReadableStream<Uint8Array>,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<ArchiveItem> {
  const src = new ByteSource(input, options.signal);
  let pax = new Map<string, string>();
  let longName: string | null = null;
  let longLink: string | null = null;
  try {
    for (;;) {
      const block = await src.read(BLOCK);
      if (block.length === 0) return; // some writers omit the end-of-archive blocks
      if (block.length < BLOCK) throw corrupt("truncated header");
      if (isZeroBlock(block)) return;
      if (!checksumOk(block)) throw corrupt("header checksum mismatch");
      const type = String.fromCharCode(block[156]);
      let size = numeric(block, 124, 12);
      if (type === "x" || type === "g" || type === "L" || type === "K") {
        if (size > MAX_META) throw corrupt("extended header too large");
        const data = await src.read(size);
        if (data.length < size) throw corrupt("truncated extended header");
        await src.skip(padOf(size));
        if (type === "x") pax = parsePax(data);
        else if (type === "L") longName = cString(data, 0, data.length);
        else if (type === "K") longLink = cString(data, 0, data.length);
        continue;
      }
      let name = cString(block, 0, 100);
      const magic = cString(block, 257, 6);
      if (magic.startsWith("ustar")) {
        const prefix = cString(block, 345, 155);
        if (prefix && magic === "ustar") name = `${prefix}/${name}`;
      }
      if (longName !== null) name = longName;
      if (pax.has("path")) name = pax.get("path")!;
      let link = longLink ?? cString(block, 157, 100);
      if (pax.has("linkpath")) link = pax.get("linkpath")!;
      if (pax.has("size")) {
        size = Number(pax.get("size"));
        if (!Number.isSafeInteger(size) || size < 0) throw corrupt("bad PAX size");
      }
      pax = new Map();
      longName = null;
      longLink = null;
      const kind = kindOf(type, name);
      // Links and folders carry no data in practice; a size on them would still occupy blocks.
      const dataSize = size;
      let left = kind === "file" ? dataSize : 0;
      const mtime = numeric(block, 136, 12);
      const item: ArchiveItem = {
        name,
        kind,
        size: kind === "file" ? dataSize : 0,
        mtime: new Date(mtime * 1000),
        link,
        content: () =>
          new ReadableStream<Uint8Array>({
            async pull(controller) {
              if (left === 0) return controller.close();
              const part = await src.next(Math.min(left, 1 << 16));
              if (part.length === 0) return controller.error(corrupt("truncated content"));
              left -= part.length;
              // A copy: the source's chunk may be handed out again, and writers keep what they are given.
              controller.enqueue(part.slice());
            },
          }),
      };
      yield item;
      const rest = (kind === "file" ? left : dataSize) + padOf(dataSize);
      if (await src.skip(rest) < rest) throw corrupt("truncated content");
    }
  } finally {
    await src.cancel();
  }
}
