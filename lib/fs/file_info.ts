/**
 * Turning stat results into the wire `Resource` fields (docs/api.md#resources): Go FileMode bits, RFC 3339
 * times in the server's offset, extension and `type`.
 */
import { openFileSync, type Pin, pinTarget } from "./floor.ts";
import type { Resource, ResourceType } from "../types.ts";
import { isBinary, mimeByExtension, sniffMime } from "./mime.ts";
import { extensionOf } from "./path.ts";

/** Files up to this size can be `text` (and have their content returned). */
export const TEXT_SIZE_LIMIT = 10 * 1024 * 1024;

/** Bytes read from a file's start for content sniffing. */
export const HEADER_BYTES = 512;

const S_IFMT = 0o170000;

/** Converts a POSIX `st_mode` into Go's FileMode number (dir = 2^31, symlink = 2^27, …). */
export function goFileMode(stMode: number | null): number {
  if (stMode === null) return 0;
  let m = stMode & 0o777;
  switch (stMode & S_IFMT) {
    case 0o040000:
      m += 2 ** 31;
      break;
    case 0o120000:
      m += 2 ** 27;
      break;
    case 0o010000:
      m += 2 ** 25;
      break;
    case 0o140000:
      m += 2 ** 24;
      break;
    case 0o060000:
      m += 2 ** 26;
      break;
    case 0o020000:
      m += 2 ** 26 + 2 ** 21;
      break;
  }
  if (stMode & 0o4000) m += 2 ** 23;
  if (stMode & 0o2000) m += 2 ** 22;
  if (stMode & 0o1000) m += 2 ** 20;
  return m;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** Formats a time like Go's RFC3339Nano in the server's local offset (`Z` when the offset is zero). */
export function formatModified(date: Date | null): string {
  const d = date ?? new Date(0);
  const offsetMin = -d.getTimezoneOffset();
  const local = new Date(d.getTime() + offsetMin * 60_000);
  let s = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  const ms = local.getUTCMilliseconds();
  if (ms) s += "." + pad(ms, 3).replace(/0+$/, "");
  if (offsetMin === 0) return s + "Z";
  const abs = Math.abs(offsetMin);
  return `${s}${offsetMin < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const secondCache = new Map<number, { head: string; zone: string }>();

/**
 * {@link formatModified} of a millisecond timestamp, memoised per whole second (the offset cannot change
 * inside one): listings format thousands of nearby times.
 */
export function formatModifiedMs(ms: number): string {
  const second = Math.floor(ms / 1000);
  let parts = secondCache.get(second);
  if (parts === undefined) {
    const full = formatModified(new Date(second * 1000));
    const cut = full.endsWith("Z") ? full.length - 1 : full.length - 6;
    parts = { head: full.slice(0, cut), zone: full.slice(cut) };
    if (secondCache.size >= 4096) secondCache.clear();
    secondCache.set(second, parts);
  }
  return parts.head + FRACTIONS[ms - second * 1000] + parts.zone;
}

/** `.xyz` with trailing zeros trimmed ("" for 0), per millisecond. */
const FRACTIONS = Array.from(
  { length: 1000 },
  (_, ms) => ms === 0 ? "" : "." + String(ms).padStart(3, "0").replace(/0+$/, ""),
);

/** Inputs of {@link detectType}. */
export interface DetectTypeOptions {
  size: number;
  isFifo?: boolean;
  /** First bytes of the file when they were read; undefined = not read (an empty buffer is "not binary"). */
  head?: Uint8Array;
  /** The viewer may modify the file (`text`), else `textImmutable`. */
  canModify: boolean;
}

/** The `type` of a non-directory entry (filebrowser's detection order). */
export function detectType(name: string, options: DetectTypeOptions): ResourceType {
  if (options.isFifo) return "blob";
  const head = options.head;
  let mime = mimeByExtension(name);
  if (mime === "" && head !== undefined) mime = sniffMime(head);
  if (mime.startsWith("video")) return "video";
  if (mime.startsWith("audio")) return "audio";
  if (mime.startsWith("image")) return "image";
  if (mime.startsWith("application/pdf") || mime.split(";")[0].endsWith("pdf")) return "pdf";
  // No header read means an empty buffer, which is "not binary".
  const binary = head !== undefined && head.length > 0 && isBinary(head);
  if ((mime.startsWith("text") || !binary) && options.size <= TEXT_SIZE_LIMIT) {
    return options.canModify ? "text" : "textImmutable";
  }
  return "blob";
}

/** True for a FIFO (named pipe): never opened. */
export function isFifo(info: Deno.FileInfo | null): boolean {
  return info !== null && info.isFifo === true;
}

/** Inputs of {@link resourceFields}. */
export interface ResourceFieldsOptions {
  /** The vpath shown in `path`. */
  path: string;
  name: string;
  /** lstat of the entry itself. */
  lstat: Deno.FileInfo;
  /** stat of the target (null for a dangling link). */
  stat: Deno.FileInfo | null;
  /** Listing items show the target's mode/mtime; a single GET shows the link's own. */
  linkOwnTimes: boolean;
  canModify: boolean;
  head?: Uint8Array;
}

/** The common Resource fields of one entry. */
export function resourceFields(options: ResourceFieldsOptions): Resource {
  const { lstat, stat, name } = options;
  const isSymlink = lstat.isSymlink;
  if (stat === null) {
    // Dangling link inside the scope: the link's own lstat, type invalid_link.
    return {
      path: options.path,
      name,
      size: lstat.size,
      extension: extensionOf(name),
      modified: formatModified(lstat.mtime),
      mode: goFileMode(lstat.mode),
      isDir: false,
      isSymlink,
      type: "invalid_link",
    };
  }
  const own = isSymlink && options.linkOwnTimes ? lstat : stat;
  const type: ResourceType = stat.isDirectory ? "" : detectType(name, {
    size: stat.size,
    isFifo: isFifo(stat),
    head: options.head,
    canModify: options.canModify,
  });
  return {
    path: options.path,
    name,
    size: stat.size,
    extension: extensionOf(name),
    modified: formatModified(own.mtime),
    mode: goFileMode(own.mode),
    isDir: stat.isDirectory,
    isSymlink,
    type,
  };
}

/** Reads up to HEADER_BYTES from the start of what a checked path leads to; empty when it cannot be read. */
export function readHeadOf(p: Parameters<typeof pinTarget>[0]): Uint8Array {
  try {
    using pin = pinTarget(p);
    return readHeadSync(pin);
  } catch {
    return new Uint8Array(0);
  }
}

/** Reads up to HEADER_BYTES from the start of a pinned file; an empty buffer when it cannot be read. */
export function readHeadSync(pin: Pin): Uint8Array {
  try {
    using file = openFileSync(pin);
    const buf = new Uint8Array(HEADER_BYTES);
    let n = 0;
    while (n < buf.length) {
      const r = file.readSync(buf.subarray(n));
      if (r === null || r === 0) break;
      n += r;
    }
    return buf.subarray(0, n);
  } catch {
    // Unreadable files are typed from an empty buffer, like upstream.
    return new Uint8Array(0);
  }
}
