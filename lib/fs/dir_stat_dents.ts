/**
 * `getdents64()` records for dir_stat.ts: reading a directory's names (kept as bytes for `fstatat()`), and
 * comparing its entries with a snapshot's by an id of each entry's name bytes and inode number.
 */

/** Entry names in read order; `links` are the indices of the entries known to be symlinks, ascending. */
export interface DirNames {
  names: string[];
  links: number[];
  /** Each entry's inode number as the directory gives it (`d_ino`). */
  inos: number[];
}

/** What {@link DirStat.diff} found. */
export interface DirDiff {
  /** Names not known (new, or another inode now) or not as the snapshot has them. */
  changed: string[];
  /** The known ids that were there. */
  seen: Set<number>;
  /** The entries in read order: the snapshot index of those as it has them, the name of the others. */
  order: (number | string)[];
}

/** Temp-file prefix of atomic writes (lib/fs/atomic.ts's TEMP_PREFIX) as bytes: ".fb-tmp-". */
const TEMP_BYTES = [46, 102, 98, 45, 116, 109, 112, 45];

/** True when `buf[at..end)` starts with the temp-file prefix. */
function isTempName(buf: Uint8Array, at: number, end: number): boolean {
  if (end - at < TEMP_BYTES.length) return false;
  for (let i = 0; i < TEMP_BYTES.length; i++) if (buf[at + i] !== TEMP_BYTES[i]) return false;
  return true;
}

/**
 * A 53-bit id of a directory entry from the UTF-8 bytes of its name (`bytes[start..end)`) and its inode
 * number: two 32-bit FNV-1a lanes, finished with murmur3's mixer. Equal for the same name and inode, and
 * different otherwise but for a chance of about n / 2^53 per comparison among n entries.
 */
export function entryId(bytes: Uint8Array, start: number, end: number, ino: number): number {
  let a = 0x811c9dc5, b = 0x2f3d8b95;
  for (let i = start; i < end; i++) {
    a = Math.imul(a ^ bytes[i], 0x01000193);
    b = Math.imul(b ^ bytes[i], 0x5bd1e995);
  }
  const lo = ino >>> 0, hi = Math.floor(ino / 4294967296) >>> 0;
  a = mix32(Math.imul(a ^ lo, 0x01000193) ^ hi);
  b = mix32(Math.imul(b ^ hi, 0x5bd1e995) ^ lo ^ (end - start));
  return (a >>> 0) * 2097152 + (b >>> 11);
}

function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const idEncoder = new TextEncoder();
let idBytes = new Uint8Array(1024);

/** {@link entryId} of a name given as a string. */
export function entryIdOf(name: string, ino: number): number {
  if (name.length * 3 > idBytes.length) idBytes = new Uint8Array(name.length * 3);
  return entryId(idBytes, 0, idEncoder.encodeInto(name, idBytes).written, ino);
}

/** d_type of a symlink in a `linux_dirent64`. */
const DT_LNK = 10;
export const DIRENT_BUF = 64 * 1024;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

type GetDents = (fd: number, buf: Uint8Array, size: bigint) => number | bigint;

/** The inode number (`d_ino`) of the `linux_dirent64` at `at`. */
function direntIno(view: DataView, at: number): number {
  return view.getUint32(at + 4, true) * 4294967296 + view.getUint32(at, true);
}

/** The names of a `list()` as read: NUL-terminated, back to back, then room for one more (`scratch`). */
export interface RawNames {
  bytes: Uint8Array;
  /** Where each name starts, and where the last one ends (one more than the names). */
  starts: number[];
  /** The end of the names: `scratch` starts there. */
  end: number;
  scratch: Uint8Array;
}

/** Room for the longest name (NAME_MAX bytes) and its NUL. */
export const NAME_ROOM = 256;

/**
 * Reads every entry of the directory `fd` (positioned at its start) with `getdents64()`. The names are
 * copied behind each other with their NUL (which no name holds), kept for `lstatListed()`, and the names of
 * one call are decoded in one go: a decode per call, not per name.
 */
export function readDirents(getdents64: GetDents, fd: number): (DirNames & { raw: RawNames }) | null {
  const buf = new Uint8Array(DIRENT_BUF);
  const view = new DataView(buf.buffer);
  let bytes = new Uint8Array(DIRENT_BUF);
  let out = 0;
  const starts: number[] = [];
  const names: string[] = [];
  const links: number[] = [];
  const inos: number[] = [];
  for (;;) {
    const n = Number(getdents64(fd, buf, BigInt(DIRENT_BUF)));
    if (n < 0) return null;
    if (n === 0) break;
    const from = out, base = names.length;
    let count = 0;
    for (let at = 0; at < n; at += view.getUint16(at + 16, true)) {
      const start = at + 19, end = buf.indexOf(0, start);
      const len = end - start;
      // "." and "..", which Deno.readDir() leaves out too.
      if (buf[start] === 46 && (len === 1 || (len === 2 && buf[start + 1] === 46))) continue;
      if (out + len + 1 + NAME_ROOM > bytes.length) {
        const bigger = new Uint8Array(bytes.length * 2);
        bigger.set(bytes.subarray(0, out));
        bytes = bigger;
      }
      starts.push(out);
      bytes.set(buf.subarray(start, end + 1), out);
      out += len + 1;
      inos.push(direntIno(view, at));
      if (buf[at + 18] === DT_LNK) links.push(base + count);
      count++;
    }
    if (count === 0) continue;
    let text: string;
    try {
      text = strictUtf8.decode(bytes.subarray(from, out - 1));
    } catch {
      return null;
    }
    for (const name of text.split("\0")) names.push(name);
  }
  starts.push(out);
  return { names, links, inos, raw: { bytes, starts, end: out, scratch: bytes.subarray(out) } };
}

/** {@link DirStat.diff} through `getdents64()` into `buf` (DIRENT_BUF bytes of it). */
export function diffDirents(
  getdents64: GetDents,
  fd: number,
  buf: Uint8Array,
  known: Map<number, number>,
  same: (index: number, start: number, end: number) => boolean,
): DirDiff | null {
  const view = new DataView(buf.buffer);
  const changed: string[] = [];
  const seen = new Set<number>();
  const order: (number | string)[] = [];
  for (;;) {
    const n = Number(getdents64(fd, buf, BigInt(DIRENT_BUF)));
    if (n < 0) return null;
    if (n === 0) return { changed, seen, order };
    for (let at = 0; at < n; at += view.getUint16(at + 16, true)) {
      const start = at + 19, end = buf.indexOf(0, start);
      const len = end - start;
      if (buf[start] === 46 && (len === 1 || (len === 2 && buf[start + 1] === 46))) continue;
      if (buf[at + 18] !== DT_LNK && isTempName(buf, start, end)) continue;
      const id = entryId(buf, start, end, direntIno(view, at));
      const index = known.get(id);
      if (index !== undefined) {
        seen.add(id);
        if (same(index, start, end)) {
          order.push(index);
          continue;
        }
      }
      let name: string;
      try {
        name = strictUtf8.decode(buf.subarray(start, end));
      } catch {
        return null;
      }
      changed.push(name);
      order.push(name);
    }
  }
}
