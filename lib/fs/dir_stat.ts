/**
 * lstat and first bytes of the entries of one directory, as cheap as it gets: on Linux (x86-64, arm64) with
 * glibc and the FFI permission, libc's `fstatat()`/`openat()` relative to a directory fd into reused
 * buffers, which skips the path walk of every absolute path, the `Deno.FileInfo` objects (4 Dates each) and
 * the file handle objects; elsewhere `Deno.lstatSync()` and `readHeadSync()`. Both give the same facts (the
 * millisecond times exactly like `Deno.FileInfo`).
 */
import { HEADER_BYTES, readHeadSync } from "./file_info.ts";
import { openForRead, serverPath } from "./floor.ts";
import {
  diffDirents,
  type DirDiff,
  DIRENT_BUF,
  type DirNames,
  NAME_ROOM,
  type RawNames,
  readDirents,
} from "./dir_stat_dents.ts";

export type { DirDiff, DirNames } from "./dir_stat_dents.ts";
export { entryId, entryIdOf } from "./dir_stat_dents.ts";

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
   * Compares the directory's entries with a snapshot's in one `getdents64()` pass over the raw names: an
   * entry whose id (see {@link entryId}) `known` maps to a snapshot index is lstat'ed from its bytes as read,
   * and `same(index, facts)` tells whether the snapshot has it so (facts null: it cannot be stat'ed). Only the
   * names of entries not known or not the same are decoded. Entries with the temp-file prefix that are not
   * symlinks are skipped, as listings skip them. Like `list()`, at most once per DirStat (the directory is
   * read from its start once); null where not available or a name to return is not UTF-8.
   */
  diff(known: Map<number, number>, same: (index: number, facts: EntryStat | null) => boolean): DirDiff | null;
  close(): void;
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

/**
 * Reads a `struct stat` buffer into `out` (int64 fields as two 32-bit halves: no BigInt per entry; the
 * offsets of size, mtime and inode are the same on x86-64 and arm64, the mode's is in {@link LAYOUTS}).
 */
function readFacts(view: DataView, modeAt: number, out: EntryStat): void {
  out.mode = view.getUint32(modeAt, true);
  out.size = view.getInt32(52, true) * 4294967296 + view.getUint32(48, true);
  out.mtimeMs = denoMs(
    view.getInt32(92, true) * 4294967296 + view.getUint32(88, true),
    view.getUint32(96, true),
  );
  out.ino = view.getUint32(12, true) * 4294967296 + view.getUint32(8, true);
}

/** A DirStat over the open folder `fd`, which it owns (closes). */
function ffiDirStat(lib: Libc, fd: number): DirStat {
  const layout = LAYOUTS[Deno.build.arch];
  const buf = new Uint8Array(layout.size);
  const view = new DataView(buf.buffer);
  const facts: EntryStat = { mode: 0, size: 0, mtimeMs: 0, ino: 0 };
  const fill = () => readFacts(view, layout.mode, facts);
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
    diff(
      known: Map<number, number>,
      same: (index: number, facts: EntryStat | null) => boolean,
    ): DirDiff | null {
      if (!lib.getdents64) return null;
      // Names are lstat'ed from a scratch slot behind the getdents64 buffer (copyWithin: no allocation).
      const dents = new Uint8Array(DIRENT_BUF + NAME_ROOM);
      const scratch = dents.subarray(DIRENT_BUF);
      const statAt = (start: number, end: number) => {
        dents.copyWithin(DIRENT_BUF, start, end + 1);
        if (lib.fstatat(fd, scratch, buf, AT_SYMLINK_NOFOLLOW) !== 0) return null;
        fill();
        return facts;
      };
      return diffDirents(
        lib.getdents64,
        fd,
        dents,
        known,
        (index, start, end) => same(index, statAt(start, end)),
      );
    },
    close() {
      if (open) lib.close(fd);
      open = false;
    },
  };
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
      // Only without libc, where the floor cannot pin either (tests force it with `portable`).
      return readHeadSync(serverPath(base + entry));
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

/** A folder as the gate resolved it: its real path and the files root the disk floor opens it beneath. */
export interface DirRef {
  readonly real: string;
  readonly anchor: string;
}

/**
 * Opens the folder `at.real` through the disk floor (floor.ts) for lstat'ing its entries; `portable` forces the
 * `Deno.lstatSync()` path. Throws `Deno.errors.NotFound`/`NotADirectory` when it is gone and 403 when a
 * component became a symlink since the gate's check (the folder is then never read).
 */
export function openDirStat(at: DirRef, options: { portable?: boolean } = {}): DirStat {
  const lib = options.portable ? null : loadLibc();
  if (lib === null) return portableDirStat(at.real);
  // One open through the floor; without an anchor (the unsafe mode that follows external links), by path.
  const fd = openForRead(at.anchor, at.real, { directory: true }) ??
    lib.open(encoder.encode(at.real + "\0"), O_RDONLY_DIRECTORY_CLOEXEC);
  return fd < 0 ? portableDirStat(at.real) : ffiDirStat(lib, fd);
}

/** A file opened by {@link readWholeFile}: its fstat and, when regular and small enough, its bytes. */
export interface WholeFile extends Omit<EntryStat, "ino"> {
  bytes: Uint8Array<ArrayBuffer> | null;
}

let statBuffer: Uint8Array | null = null;

/**
 * Opens `path` with {@link O_HEAD}, fstats the descriptor and, when it is a regular file of at most `max`
 * bytes, reads it whole into `bufferFor(size)`: the facts with the bytes read (null: not regular, or too big);
 * null when it cannot be opened so or was shortened during the read; undefined where libc is not available.
 */
function readWhole(
  path: string | { fd: number },
  max: number,
  bufferFor: (size: number) => Uint8Array,
): { facts: EntryStat; bytes: Uint8Array | null } | null | undefined {
  const lib = loadLibc();
  if (lib === null) return undefined;
  // A descriptor the caller opened (and closes); else `path` opened here.
  const own = typeof path === "string";
  const fd = own ? lib.open(encoder.encode(path + "\0"), O_HEAD) : path.fd;
  if (fd < 0) return null;
  try {
    const layout = LAYOUTS[Deno.build.arch];
    const st = statBuffer ??= new Uint8Array(layout.size);
    if (lib.fstatat(fd, new Uint8Array(1), st, AT_EMPTY_PATH) !== 0) return null;
    const facts: EntryStat = { mode: 0, size: 0, mtimeMs: 0, ino: 0 };
    readFacts(new DataView(st.buffer), layout.mode, facts);
    const size = facts.size;
    if (fileType(facts.mode) !== S_IFREG || size > max) return { facts, bytes: null };
    const bytes = bufferFor(size);
    let n = 0;
    while (n < size) {
      const r = Number(lib.read(fd, bytes.subarray(n, size), BigInt(size - n)));
      if (r <= 0) break;
      n += r;
    }
    // Shortened between the fstat and the read (truncated in place): nothing; the caller streams it.
    return n === size ? { facts, bytes: bytes.subarray(0, size) } : null;
  } finally {
    if (own) lib.close(fd);
  }
}

/**
 * Opens `path` with libc (O_NONBLOCK, O_NOFOLLOW: a FIFO swapped in since the gate's lstat does not block the
 * server, a symlink swapped in is not followed), fstats the descriptor and reads the file whole when it is a
 * regular file of at most `max` bytes. Returns null when it cannot be opened so (gone, a symlink now, no
 * permission), and undefined where libc is not available (the caller's portable path then).
 */
export function readWholeFile(path: string | { fd: number }, max: number): WholeFile | null | undefined {
  const whole = readWhole(path, max, (size) => new Uint8Array(size));
  if (!whole) return whole;
  const { mode, size, mtimeMs } = whole.facts;
  return { mode, size, mtimeMs, bytes: whole.bytes as Uint8Array<ArrayBuffer> | null };
}

/** What {@link readWholeFileInto} found: the descriptor's fstat and how many bytes it read. */
export interface WholeFileRead extends Omit<EntryStat, "ino"> {
  /** The file's size when it was read whole into the target; -1 when nothing was read (not regular, too big). */
  read: number;
}

/**
 * {@link readWholeFile} into the caller's buffer, for loops that read many small files (archives): opens `path`
 * the same way (O_NONBLOCK, O_NOFOLLOW), fstats it and, when it is a regular file of at most `target.length`
 * bytes, reads it whole into the start of `target` (`read` = its size) without allocating; otherwise reads
 * nothing (`read` = -1). Null when it cannot be opened so or was truncated during the read, undefined where
 * libc is not available.
 */
export function readWholeFileInto(
  path: string | { fd: number },
  target: Uint8Array,
): WholeFileRead | null | undefined {
  const whole = readWhole(path, target.length, () => target);
  if (!whole) return whole;
  const { mode, size, mtimeMs } = whole.facts;
  return { mode, size, mtimeMs, read: whole.bytes === null ? -1 : size };
}
