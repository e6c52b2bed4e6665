/**
 * lstat and first bytes of the entries of one directory, as cheap as it gets: on Linux (x86-64, arm64) with
 * glibc and the FFI permission, libc's `fstatat()`/`openat()` relative to a directory fd into reused
 * buffers, which skips the path walk of every absolute path, the `Deno.FileInfo` objects (4 Dates each) and
 * the file handle objects; elsewhere `Deno.lstatSync()` and `readHeadSync()`. Both give the same facts (the
 * millisecond times exactly like `Deno.FileInfo`).
 */
import { HEADER_BYTES, readHeadSync } from "./file_info.ts";

/** What a listing needs of an entry's lstat. */
export interface EntryStat {
  /** POSIX `st_mode` (type and permission bits). */
  mode: number;
  size: number;
  /** Modification time in ms, rounded like `Deno.FileInfo.mtime`. */
  mtimeMs: number;
  /** Inode number (exact below 2^53). */
  ino: number;
}

/** An open directory whose entries can be lstat'ed by name; close it when done. */
export interface DirStat {
  /** lstat of `<dir>/<name>`; null when it cannot be stat'ed (vanished, broken mount, no permission). */
  lstat(name: string): EntryStat | null;
  /**
   * lstat of entry `i` of the last `list()`, from its name's bytes as read (no string round trip, no object):
   * true with the facts in {@link DirStat.facts}, false when it cannot be stat'ed or was not listed.
   */
  lstatListed(i: number): boolean;
  /** The facts of the last successful `lstatListed()`: one object, overwritten by the next call. */
  readonly facts: EntryStat;
  /**
   * Up to HEADER_BYTES from the start of a regular file `<dir>/<name>`; empty when it cannot be read. The
   * result may be a view of a reused buffer: valid until the next call.
   */
  readHead(name: string): Uint8Array;
  /**
   * The directory's entries in read order (without `.` and `..`), from one synchronous `getdents64()` per 64
   * KiB of entries; null where that is not available or a name is not valid UTF-8 (then `Deno.readDir()`).
   */
  list(): DirNames | null;
  /**
   * Compares the directory's entries with `known` ids (see {@link entryId}) in one `getdents64()` pass over
   * the raw names, decoding only the names of entries whose id is not known. Entries with the temp-file
   * prefix that are not symlinks are skipped, as listings skip them. Like `list()`, at most once per DirStat
   * (the directory is read from its start once); null where not available or a new name is not UTF-8.
   */
  diff(known: Set<number>): DirDiff | null;
  close(): void;
}

/** Entry names in read order; `links` are the indices of the entries known to be symlinks, ascending. */
export interface DirNames {
  names: string[];
  links: number[];
  /** Each entry's inode number as the directory gives it (`d_ino`). */
  inos: number[];
}

/** What {@link DirStat.diff} found: names not known (new, or another inode now), and the known ids seen. */
export interface DirDiff {
  added: string[];
  seen: Set<number>;
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

const S_IFMT = 0o170000;
/** `st_mode` type of a directory. */
export const S_IFDIR = 0o040000;
/** `st_mode` type of a regular file. */
export const S_IFREG = 0o100000;
/** `st_mode` type of a symlink. */
export const S_IFLNK = 0o120000;
/** `st_mode` type of a FIFO. */
export const S_IFIFO = 0o010000;

/** The file type bits of a mode. */
export function fileType(mode: number): number {
  return mode & S_IFMT;
}

const O_RDONLY_DIRECTORY_CLOEXEC = 0o200000 | 0o2000000;
/**
 * O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC: an entry swapped for a FIFO or a symlink since its lstat
 * neither blocks the server nor gets followed.
 */
const O_HEAD = 0o4000 | 0o400000 | 0o2000000;
const AT_SYMLINK_NOFOLLOW = 0x100;
/** fstatat() of the descriptor itself (an fstat through the one stat symbol we bind). */
const AT_EMPTY_PATH = 0x1000;

/** `struct stat` layouts: byte offsets of st_mode, st_size, st_mtime (tv_sec, then tv_nsec). */
const LAYOUTS: Record<string, { size: number; mode: number }> = {
  x86_64: { size: 144, mode: 24 },
  aarch64: { size: 128, mode: 16 },
};

const SYMBOLS = {
  open: { parameters: ["buffer", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  fstatat: { parameters: ["i32", "buffer", "buffer", "i32"], result: "i32" },
  openat: { parameters: ["i32", "buffer", "i32"], result: "i32" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  // glibc 2.30 and later; without it, listings read the directory through Deno.
  getdents64: { parameters: ["i32", "buffer", "usize"], result: "isize", optional: true },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

let libc: Libc | null | undefined;

function loadLibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  try {
    if (Deno.build.os !== "linux" || !(Deno.build.arch in LAYOUTS)) return null;
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return null;
    libc = Deno.dlopen("libc.so.6", SYMBOLS).symbols;
  } catch {
    // No glibc (musl, static builds) or no FFI: the portable path below.
  }
  return libc;
}

/** Deno's millisecond time of a timespec (`nsec` in [0, 1e9)): the floor, also before 1970. */
export function denoMs(sec: number, nsec: number): number {
  return sec * 1000 + Math.floor(nsec / 1e6);
}

const encoder = new TextEncoder();

function ffiDirStat(lib: Libc, real: string): DirStat | null {
  const layout = LAYOUTS[Deno.build.arch];
  const path = encoder.encode(real + "\0");
  const fd = lib.open(path, O_RDONLY_DIRECTORY_CLOEXEC);
  if (fd < 0) return null;
  const buf = new Uint8Array(layout.size);
  const view = new DataView(buf.buffer);
  const facts: EntryStat = { mode: 0, size: 0, mtimeMs: 0, ino: 0 };
  /** Reads the stat buffer into `facts` (int64 fields as two 32-bit halves: no BigInt per entry). */
  const fill = () => {
    facts.mode = view.getUint32(layout.mode, true);
    facts.size = view.getInt32(52, true) * 4294967296 + view.getUint32(48, true);
    facts.mtimeMs = denoMs(
      view.getInt32(92, true) * 4294967296 + view.getUint32(88, true),
      view.getUint32(96, true),
    );
    facts.ino = view.getUint32(12, true) * 4294967296 + view.getUint32(8, true);
  };
  let listed: RawNames | null = null;
  let name = new Uint8Array(1024);
  const head = new Uint8Array(HEADER_BYTES);
  let open = true;
  const cName = (entry: string) => {
    if (entry.length * 3 + 1 > name.length) name = new Uint8Array(entry.length * 3 + 1);
    name[encoder.encodeInto(entry, name).written] = 0;
    return name;
  };
  return {
    facts,
    lstat(entry: string): EntryStat | null {
      if (lib.fstatat(fd, cName(entry), buf, AT_SYMLINK_NOFOLLOW) !== 0) return null;
      fill();
      return { ...facts };
    },
    lstatListed(i: number): boolean {
      if (listed === null || i < 0 || i >= listed.starts.length - 1) return false;
      // The name's bytes and NUL, copied to the scratch space behind all names: no allocation.
      listed.bytes.copyWithin(listed.end, listed.starts[i], listed.starts[i + 1]);
      if (lib.fstatat(fd, listed.scratch, buf, AT_SYMLINK_NOFOLLOW) !== 0) return false;
      fill();
      return true;
    },
    readHead(entry: string): Uint8Array {
      const file = lib.openat(fd, cName(entry), O_HEAD);
      if (file < 0) return head.subarray(0, 0);
      let n = 0;
      try {
        while (n < head.length) {
          const r = Number(lib.read(file, head.subarray(n), BigInt(head.length - n)));
          // Like readHeadSync(): any read error means "typed from an empty buffer".
          if (r < 0) return head.subarray(0, 0);
          if (r === 0) break;
          n += r;
        }
      } finally {
        lib.close(file);
      }
      return head.subarray(0, n);
    },
    list(): DirNames | null {
      const read = lib.getdents64 ? readDirents(lib.getdents64, fd) : null;
      listed = read?.raw ?? null;
      return read;
    },
    diff(known: Set<number>): DirDiff | null {
      return lib.getdents64 ? diffDirents(lib.getdents64, fd, known) : null;
    },
    close() {
      if (open) lib.close(fd);
      open = false;
    },
  };
}

/** d_type of a symlink in a `linux_dirent64`. */
const DT_LNK = 10;
const DIRENT_BUF = 64 * 1024;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

type GetDents = (fd: number, buf: Uint8Array, size: bigint) => number | bigint;

/** The inode number (`d_ino`) of the `linux_dirent64` at `at`. */
function direntIno(view: DataView, at: number): number {
  return view.getUint32(at + 4, true) * 4294967296 + view.getUint32(at, true);
}

/** The names of a `list()` as read: NUL-terminated, back to back, then room for one more (`scratch`). */
interface RawNames {
  bytes: Uint8Array;
  /** Where each name starts, and where the last one ends (one more than the names). */
  starts: number[];
  /** The end of the names: `scratch` starts there. */
  end: number;
  scratch: Uint8Array;
}

/** Room for the longest name (NAME_MAX bytes) and its NUL. */
const NAME_ROOM = 256;

/**
 * Reads every entry of the directory `fd` (positioned at its start) with `getdents64()`. The names are
 * copied behind each other with their NUL (which no name holds), kept for `lstatListed()`, and the names of
 * one call are decoded in one go: a decode per call, not per name.
 */
function readDirents(getdents64: GetDents, fd: number): (DirNames & { raw: RawNames }) | null {
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

/** {@link DirStat.diff} through `getdents64()`. */
function diffDirents(getdents64: GetDents, fd: number, known: Set<number>): DirDiff | null {
  const buf = new Uint8Array(DIRENT_BUF);
  const view = new DataView(buf.buffer);
  const added: string[] = [];
  const seen = new Set<number>();
  for (;;) {
    const n = Number(getdents64(fd, buf, BigInt(DIRENT_BUF)));
    if (n < 0) return null;
    if (n === 0) return { added, seen };
    for (let at = 0; at < n; at += view.getUint16(at + 16, true)) {
      const start = at + 19, end = buf.indexOf(0, start);
      const len = end - start;
      if (buf[start] === 46 && (len === 1 || (len === 2 && buf[start + 1] === 46))) continue;
      if (buf[at + 18] !== DT_LNK && isTempName(buf, start, end)) continue;
      const id = entryId(buf, start, end, direntIno(view, at));
      if (known.has(id)) {
        seen.add(id);
        continue;
      }
      try {
        added.push(strictUtf8.decode(buf.subarray(start, end)));
      } catch {
        return null;
      }
    }
  }
}

function portableDirStat(real: string): DirStat {
  const base = real === "/" ? "/" : real + "/";
  return {
    lstat(entry: string): EntryStat | null {
      let info: Deno.FileInfo;
      try {
        info = Deno.lstatSync(base + entry);
      } catch {
        return null;
      }
      return {
        mode: info.mode ?? 0,
        size: info.size,
        mtimeMs: info.mtime?.getTime() ?? 0,
        ino: info.ino ?? 0,
      };
    },
    readHead(entry: string): Uint8Array {
      return readHeadSync(base + entry);
    },
    list: () => null,
    lstatListed: () => false,
    facts: { mode: 0, size: 0, mtimeMs: 0, ino: 0 },
    diff: () => null,
    close() {},
  };
}

/** True when {@link openDirStat} uses libc's fstatat (Linux, glibc, FFI permission). */
export function hasFastDirStat(): boolean {
  return loadLibc() !== null;
}

/** Opens `real` (a directory) for lstat'ing its entries; `portable` forces the `Deno.lstatSync()` path. */
export function openDirStat(real: string, options: { portable?: boolean } = {}): DirStat {
  const lib = options.portable ? null : loadLibc();
  return (lib && ffiDirStat(lib, real)) ?? portableDirStat(real);
}

/** A file opened by {@link readWholeFile}: its fstat and, when regular and small enough, its bytes. */
export interface WholeFile extends Omit<EntryStat, "ino"> {
  bytes: Uint8Array<ArrayBuffer> | null;
}

/**
 * Opens `path` with libc (O_NONBLOCK, O_NOFOLLOW: a FIFO swapped in since the gate's lstat does not block the
 * server, a symlink swapped in is not followed), fstats the descriptor and reads the file whole when it is a
 * regular file of at most `max` bytes. Returns null when it cannot be opened so (gone, a symlink now, no
 * permission), and undefined where libc is not available (the caller's portable path then).
 */
export function readWholeFile(path: string, max: number): WholeFile | null | undefined {
  const lib = loadLibc();
  if (lib === null) return undefined;
  const fd = lib.open(encoder.encode(path + "\0"), O_HEAD);
  if (fd < 0) return null;
  try {
    const layout = LAYOUTS[Deno.build.arch];
    const st = new Uint8Array(layout.size);
    if (lib.fstatat(fd, new Uint8Array(1), st, AT_EMPTY_PATH) !== 0) return null;
    const view = new DataView(st.buffer);
    const mode = view.getUint32(layout.mode, true);
    const size = Number(view.getBigInt64(48, true));
    const mtimeMs = denoMs(Number(view.getBigInt64(88, true)), Number(view.getBigInt64(96, true)));
    if (fileType(mode) !== S_IFREG || size > max) return { mode, size, mtimeMs, bytes: null };
    const bytes = new Uint8Array(size);
    let n = 0;
    while (n < size) {
      const r = Number(lib.read(fd, bytes.subarray(n), BigInt(size - n)));
      if (r <= 0) break;
      n += r;
    }
    // Shortened between the fstat and the read (truncated in place): no bytes; the caller streams it.
    return n === size ? { mode, size, mtimeMs, bytes } : null;
  } finally {
    lib.close(fd);
  }
}
