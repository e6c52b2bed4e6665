/**
 * The disk floor (docs/security.md#the-disk-floor): every operation on a user's files reaches the disk through a
 * descriptor opened beneath the files root, never through a path string that the kernel resolves again after the
 * gate checked it.
 *
 * The gate (gate.ts) resolves a vpath to its real location (`ScopedPath.real`: no symlink left in it) and checks
 * rules, hiding and confinement on that. The floor then opens exactly that location relative to a descriptor of
 * the files root with `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)`: a component that
 * has become a symlink since the check (a folder swapped for a link to `/etc`) fails the open (ELOOP) instead of
 * being followed, and nothing above the files root can be reached. Where openat2 is missing (Linux before 5.6), a
 * walk of `openat(O_PATH | O_NOFOLLOW)` one component at a time gives the same guarantee.
 *
 * What the floor hands out is a {@link Pin}: an `O_PATH` descriptor of the object (or of an entry's parent
 * folder) and a `/proc/self/fd/N` path naming it. The kernel resolves that path as a jump to the very object the
 * descriptor holds, so Deno's APIs (and libraries that take a path, like sharp) can use it without a second
 * resolution of the user's path. A pin is closed as soon as the operation has its own file handle; `using` does
 * it.
 *
 * Without FFI (or off Linux) the floor cannot pin: `path` is then the checked path itself and the race window
 * of earlier versions is open again; {@link floorMode} says which and the server logs it once at start.
 */
import { ForbiddenError, NotFoundError } from "../errors.ts";
import type { ScopedPath } from "./gate.ts";

/** O_PATH descriptor: names an object without opening it for I/O (a FIFO is not opened, nothing blocks). */
const O_PATH = 0o10000000;
const O_DIRECTORY = 0o200000;
const O_NOFOLLOW = 0o400000;
const O_CLOEXEC = 0o2000000;
const RESOLVE_NO_MAGICLINKS = 0x02;
const RESOLVE_NO_SYMLINKS = 0x04;
const RESOLVE_BENEATH = 0x08;
/** `openat2` is syscall 437 on every Linux architecture (the unified numbering of new calls). */
const SYS_OPENAT2 = 437n;
const AT_EMPTY_PATH = 0x1000;
const AT_SYMLINK_NOFOLLOW = 0x100;
const RENAME_NOREPLACE = 1;

const ENOENT = 2;
const EACCES = 13;
const EPERM = 1;
const EEXIST = 17;
const EXDEV = 18;
const ENOTDIR = 20;
const EINVAL = 22;
const ENAMETOOLONG = 36;
const ENOSYS = 38;
const ELOOP = 40;
const ENOTSUP = 95;

const STAT_LAYOUTS: Record<string, { size: number; mode: number }> = {
  x86_64: { size: 144, mode: 24 },
  aarch64: { size: 128, mode: 16 },
};

const SYMBOLS = {
  syscall: { parameters: ["i64", "i64", "buffer", "buffer", "usize"], result: "i64" },
  closeRange: { name: "syscall", parameters: ["i64", "u32", "u32", "u32"], result: "i64" },
  openat: { parameters: ["i32", "buffer", "i32", "u32"], result: "i32" },
  open: { parameters: ["buffer", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  fstatat: { parameters: ["i32", "buffer", "buffer", "i32"], result: "i32" },
  __errno_location: { parameters: [], result: "pointer" },
  renameat2: { parameters: ["i32", "buffer", "i32", "buffer", "u32"], result: "i32", optional: true },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

let libc: Libc | null | undefined;
let hasOpenat2 = true;

function loadLibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  try {
    if (Deno.build.os !== "linux" || !(Deno.build.arch in STAT_LAYOUTS)) return null;
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return null;
    libc = Deno.dlopen("libc.so.6", SYMBOLS).symbols;
  } catch {
    // No glibc or no FFI: the floor cannot pin (floorMode() says so).
  }
  return libc;
}

/** How the floor reaches the disk here: `openat2`, the `openat` walk, or plain paths (no protection). */
export function floorMode(): "openat2" | "openat-walk" | "paths" {
  const lib = loadLibc();
  if (lib === null) return "paths";
  return hasOpenat2 ? "openat2" : "openat-walk";
}

function errno(lib: Libc): number {
  const p = lib.__errno_location();
  return p === null ? 0 : new Deno.UnsafePointerView(p).getInt32();
}

const encoder = new TextEncoder();
function cString(s: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(s + "\0");
}

/** An error of the floor for `errno`, shaped like Deno's so existing handlers keep working. */
function floorError(code: number, what: string): Error {
  switch (code) {
    case ENOENT:
      return new Deno.errors.NotFound(`No such file or directory: ${what}`);
    case ENOTDIR:
      return new Deno.errors.NotADirectory(`Not a directory: ${what}`);
    case EACCES:
    case EPERM:
      return new Deno.errors.PermissionDenied(`Permission denied: ${what}`);
    case EEXIST:
      return new Deno.errors.AlreadyExists(`File exists: ${what}`);
    case ELOOP:
      // A symlink where the gate saw none: swapped in since the check, and never followed.
      return new ForbiddenError("symlink_escape", "Path changed into a link since it was checked");
    case EXDEV:
      // A way out of the files root.
      return new ForbiddenError("symlink_escape", "Path resolves outside the scope");
    case ENAMETOOLONG: {
      const err = new Error(
        `File name too long: the path is too long to address (${what.length} characters)`,
      );
      (err as Error & { code: string }).code = "ENAMETOOLONG";
      return err;
    }
    default: {
      const err = new Error(`${what}: errno ${code}`);
      (err as Error & { code: string }).code = `E${code}`;
      return err;
    }
  }
}

interface Anchor {
  fd: number;
  dev: number;
  ino: number;
  checkedAt: number;
}

/** How long an anchor descriptor is trusted before its path is stat'ed again (a root replaced meanwhile). */
const ANCHOR_CHECK_MS = 1000;
const anchors = new Map<string, Anchor>();

function statIds(path: string): { dev: number; ino: number } | null {
  try {
    const info = Deno.statSync(path);
    return { dev: info.dev, ino: info.ino ?? 0 };
  } catch {
    return null;
  }
}

/**
 * The descriptor of a files root (`anchorReal`, a real path the administrator configured). Opened once and
 * re-checked every second: when the path now names another directory (the root was replaced), a new
 * descriptor is opened and the old one is closed a minute later (operations in flight may still hold it).
 */
function anchorFd(lib: Libc, anchorReal: string): number {
  const now = performance.now();
  const hit = anchors.get(anchorReal);
  if (hit !== undefined && now - hit.checkedAt < ANCHOR_CHECK_MS) return hit.fd;
  const ids = statIds(anchorReal);
  if (hit !== undefined && ids !== null && ids.dev === hit.dev && ids.ino === hit.ino) {
    hit.checkedAt = now;
    return hit.fd;
  }
  const fd = lib.open(cString(anchorReal), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw floorError(errno(lib), anchorReal);
  const own = statIds(`/proc/self/fd/${fd}`) ?? { dev: 0, ino: 0 };
  anchors.set(anchorReal, { fd, ...own, checkedAt: now });
  if (hit !== undefined) {
    const old = hit.fd;
    const timer = setTimeout(() => lib.close(old), 60_000);
    Deno.unrefTimer(timer);
  }
  return fd;
}

/** The path of `real` relative to `anchorReal` ("." for the anchor itself); throws 403 when it is not beneath. */
function relativeTo(anchorReal: string, real: string): string {
  if (real === anchorReal) return ".";
  const base = anchorReal === "/" ? "/" : anchorReal + "/";
  if (!real.startsWith(base) || real.length === base.length) {
    throw new ForbiddenError("symlink_escape", "Path resolves outside the scope");
  }
  return real.slice(base.length);
}

const openHow = new BigUint64Array(3);

function openat2(lib: Libc, dirfd: number, rel: string, flags: number): number {
  openHow[0] = BigInt(flags);
  openHow[1] = 0n;
  openHow[2] = BigInt(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
  const fd = Number(
    lib.syscall(SYS_OPENAT2, BigInt(dirfd), cString(rel), new Uint8Array(openHow.buffer), 24n),
  );
  return fd < 0 ? -errno(lib) : fd;
}

let statBuf: Uint8Array | null = null;

function isSymlinkFd(lib: Libc, fd: number): boolean {
  const layout = STAT_LAYOUTS[Deno.build.arch];
  const buf = statBuf ??= new Uint8Array(layout.size);
  if (lib.fstatat(fd, new Uint8Array(1), buf, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) !== 0) return false;
  const mode = new DataView(buf.buffer).getUint32(layout.mode, true);
  return (mode & 0o170000) === 0o120000;
}

/** openat2's guarantee by a walk: each component opened O_PATH | O_NOFOLLOW relative to the one before. */
function openWalk(lib: Libc, anchor: number, rel: string, flags: number): number {
  let fd = lib.openat(anchor, cString("."), O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0) return -errno(lib);
  if (rel === ".") return fd;
  const parts = rel.split("/");
  for (let i = 0; i < parts.length; i++) {
    const last = i === parts.length - 1;
    const next = lib.openat(
      fd,
      cString(parts[i]),
      last ? flags | O_NOFOLLOW : O_PATH | O_NOFOLLOW | O_CLOEXEC | O_DIRECTORY,
      0,
    );
    const code = next < 0 ? errno(lib) : 0;
    lib.close(fd);
    if (next < 0) return -code;
    if ((flags & O_PATH) !== 0 && isSymlinkFd(lib, next)) {
      lib.close(next);
      return -ELOOP;
    }
    fd = next;
  }
  return fd;
}

/** An O_PATH descriptor of `real` opened beneath the anchor without following any symlink; throws on failure. */
function openBeneath(lib: Libc, anchorReal: string, real: string, flags = O_PATH | O_CLOEXEC): number {
  const rel = relativeTo(anchorReal, real);
  const anchor = anchorFd(lib, anchorReal);
  let fd = hasOpenat2 ? openat2(lib, anchor, rel, flags) : -ENOSYS;
  if (fd === -ENOSYS || (fd === -EINVAL && hasOpenat2)) {
    hasOpenat2 = false;
    fd = openWalk(lib, anchor, rel, flags);
  }
  if (fd < 0) throw floorError(-fd, real);
  return fd;
}

/**
 * A location held open: `path` names it for Deno's APIs without another resolution of the user's path. Close
 * it (or let `using` do it) once the operation has its own handle.
 */
export class Pin implements Disposable {
  #fd: number;
  /** `/proc/self/fd/N` (the object), `/proc/self/fd/N/name` (an entry of a pinned folder), or a plain path. */
  readonly path: string;

  constructor(fd: number, path: string) {
    this.#fd = fd;
    this.path = path;
  }

  /** The descriptor (-1 when not pinned). */
  get fd(): number {
    return this.#fd;
  }

  /** True when the path goes through a descriptor (false: the floor could not pin here, see floorMode()). */
  get pinned(): boolean {
    return this.#fd >= 0;
  }

  close(): void {
    if (this.#fd >= 0) loadLibc()?.close(this.#fd);
    this.#fd = -1;
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

function splitEntry(entry: string): { parent: string; name: string } {
  const slash = entry.lastIndexOf("/");
  return { parent: slash <= 0 ? "/" : entry.slice(0, slash), name: entry.slice(slash + 1) };
}

/**
 * Pins the object at `real` (a real path beneath `anchorReal`, as the gate resolved it). Throws
 * `Deno.errors.NotFound`/`NotADirectory` when it is gone, 403 (`symlink_escape`) when a component is now a
 * symlink or leads out. `anchorReal` "" means "no floor" (unsafe mode that follows external links).
 */
export function pinObject(anchorReal: string, real: string): Pin {
  const lib = anchorReal === "" ? null : loadLibc();
  if (lib === null) return new Pin(-1, real);
  const fd = openBeneath(lib, anchorReal, real);
  return new Pin(fd, `/proc/self/fd/${fd}`);
}

/**
 * Pins the folder holding the entry `entry` (its parent is a real path beneath `anchorReal`) and names the entry
 * in it: `path` is `/proc/self/fd/N/<name>`, for operations on the entry itself (lstat, unlink, rename, mkdir,
 * an exclusive create, reading a link), which never follow a final symlink. The anchor itself has no parent
 * inside the floor: it is pinned as an object.
 */
export function pinEntry(anchorReal: string, entry: string): Pin {
  const lib = anchorReal === "" ? null : loadLibc();
  if (lib === null) return new Pin(-1, entry);
  if (entry === anchorReal) return pinObject(anchorReal, entry);
  const { parent, name } = splitEntry(entry);
  if (name === "" || name === "." || name === "..") throw new NotFoundError("not_found");
  const fd = openBeneath(lib, anchorReal, parent);
  return new Pin(fd, `/proc/self/fd/${fd}/${name}`);
}

/** Throws the floor's error for the failed libc call (errno read at once). */
function fail(lib: Libc, what: string): never {
  throw floorError(errno(lib), what);
}

/**
 * rename(2) of pinned entries with RENAME_NOREPLACE: fails with `Deno.errors.AlreadyExists` instead of replacing
 * what is at `to`. Returns false where the file system (or libc) does not support the flag, so the caller can
 * fall back on its own check.
 */
export function renameNoReplace(from: Pin, to: Pin): boolean {
  const lib = loadLibc();
  if (lib === null || lib.renameat2 === null) return false;
  const AT_FDCWD = -100;
  if (lib.renameat2(AT_FDCWD, cString(from.path), AT_FDCWD, cString(to.path), RENAME_NOREPLACE) === 0) {
    return true;
  }
  const code = errno(lib);
  if (code === EINVAL || code === ENOSYS || code === ENOTSUP) return false;
  fail(lib, to.path);
}

/**
 * Creates the folder `real` beneath `anchorReal` and any missing parents, one `mkdir` at a time in a pinned
 * parent: a component that is a symlink is refused (403), never followed, so a scope folder cannot be created
 * through a link. Existing folders are fine.
 */
export function ensureDirBeneath(anchorReal: string, real: string, mode = 0o750): void {
  const rel = relativeTo(anchorReal, real);
  if (rel === ".") return;
  // The common case, a folder that is there: one open, no walk.
  try {
    using there = pinObject(anchorReal, real);
    if (statSync(there).isDirectory) return;
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  let at = anchorReal;
  for (const part of rel.split("/")) {
    at = at === "/" ? `/${part}` : `${at}/${part}`;
    using entry = pinEntry(anchorReal, at);
    try {
      Deno.mkdirSync(entry.path, { mode });
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    }
  }
  // The last one must be a folder reached without a link.
  pinObject(anchorReal, real).close();
}

/** What the floor needs of a checked path: where it is, and the anchor of its confinement. */
type Located = Pick<ScopedPath, "path" | "real"> & { confinement: { anchor: string } };

/** Pins what a checked path leads to (a link's target, else the entry itself). */
export function pinTarget(p: Located): Pin {
  return pinObject(p.confinement.anchor, p.real);
}

/** Pins the folder of a checked path's entry (the link itself for a link) and names the entry in it. */
export function pinAt(p: Located): Pin {
  return pinEntry(p.confinement.anchor, p.path);
}

/** Pins the object at a real path inside a checked path's confinement (walkers' children, temp siblings). */
export function pinRealIn(p: Located, real: string): Pin {
  return pinObject(p.confinement.anchor, real);
}

/** Pins the entry at a real path inside a checked path's confinement. */
export function pinEntryIn(p: Located, entry: string): Pin {
  return pinEntry(p.confinement.anchor, entry);
}

/**
 * A path the server owns (its upload staging, trash store, caches): never inside a user's files, so there is
 * nothing to pin. Named so, a call site says which kind of path it hands to the floor's wrappers below.
 */
export function serverPath(path: string): Pin {
  return new Pin(-1, path);
}

// The floor's surface for Deno's file APIs: each takes a Pin (a checked location pinned by a descriptor, or a
// server path), so a path string from a request cannot reach the disk without passing the gate and the floor.
// tests/architecture_test.ts refuses Deno's file APIs in lib/ outside this module and the server-path modules.

/**
 * Opens a pinned regular file. Anything else is refused before the open (403 `not_regular`): a FIFO, socket or
 * device could block the server, and a folder swapped in where a file was checked would fail mid-answer.
 */
export async function openFile(pin: Pin, options: Deno.OpenOptions = { read: true }): Promise<Deno.FsFile> {
  if (!options.create && !options.createNew) {
    const info = Deno.statSync(pin.path);
    // A FIFO, device or socket could block; a folder (swapped in for a file) would fail mid-read.
    if (!info.isFile) throw new ForbiddenError("not_regular", "Not a regular file");
  }
  return await Deno.open(pin.path, options);
}

/** {@link openFile}, synchronously (small reads on the request's thread). */
export function openFileSync(pin: Pin, options: Deno.OpenOptions = { read: true }): Deno.FsFile {
  if (!options.create && !options.createNew) {
    const info = Deno.statSync(pin.path);
    // A FIFO, device or socket could block; a folder (swapped in for a file) would fail mid-read.
    if (!info.isFile) throw new ForbiddenError("not_regular", "Not a regular file");
  }
  return Deno.openSync(pin.path, options);
}

/** The entries of a pinned folder. */
export function readDir(pin: Pin): AsyncIterable<Deno.DirEntry> {
  return Deno.readDir(pin.path);
}

/** The entries of a pinned folder, read at once on this thread. */
export function readDirSync(pin: Pin): Deno.DirEntry[] {
  return [...Deno.readDirSync(pin.path)];
}

/** The names in a pinned folder, read at once. */
export async function readDirNames(pin: Pin): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(pin.path)) names.push(e.name);
  return names;
}

/** stat of a pinned object (an entry pin follows its final name: use lstat for the entry itself). */
export function stat(pin: Pin): Promise<Deno.FileInfo> {
  return Deno.stat(pin.path);
}

export function statSync(pin: Pin): Deno.FileInfo {
  return Deno.statSync(pin.path);
}

/** lstat of a pinned entry (a link stays a link). */
export function lstat(pin: Pin): Promise<Deno.FileInfo> {
  return Deno.lstat(pin.path);
}

export function lstatSync(pin: Pin): Deno.FileInfo {
  return Deno.lstatSync(pin.path);
}

/** lstat, or null when nothing is there. */
export async function lstatOrNull(pin: Pin): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(pin.path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return null;
    throw err;
  }
}

/** Creates the pinned entry as a folder (not recursive: parents are pinned, see {@link ensureDirBeneath}). */
export function mkdir(pin: Pin, options: { mode?: number } = {}): Promise<void> {
  return Deno.mkdir(pin.path, options);
}

/**
 * Removes a pinned entry; a folder with `recursive` (Deno's removal walks below the pinned entry relative to
 * open folders and never follows a link).
 */
export function remove(pin: Pin, options: { recursive?: boolean } = {}): Promise<void> {
  return Deno.remove(pin.path, options);
}

/** Renames a pinned entry onto another (replacing a file there, as rename(2) does). */
export function rename(from: Pin, to: Pin): Promise<void> {
  return Deno.rename(from.path, to.path);
}

/** A hard link of a pinned entry at another pinned entry (never replaces). */
export function link(from: Pin, to: Pin): Promise<void> {
  return Deno.link(from.path, to.path);
}

export function readLink(pin: Pin): Promise<string> {
  return Deno.readLink(pin.path);
}

/** Creates the pinned entry as a symlink to `target` (the text is not resolved here). */
export function symlink(target: string, pin: Pin): Promise<void> {
  return Deno.symlink(target, pin.path);
}

export function utime(pin: Pin, atime: Date | number, mtime: Date | number): Promise<void> {
  return Deno.utime(pin.path, atime, mtime);
}

/** Reads a pinned regular file whole. */
export function readFile(pin: Pin): Promise<Uint8Array<ArrayBuffer>> {
  if (!Deno.statSync(pin.path).isFile) throw new ForbiddenError("not_regular", "Not a regular file");
  return Deno.readFile(pin.path);
}

export async function readTextFile(pin: Pin): Promise<string> {
  return new TextDecoder().decode(await readFile(pin));
}

/** Writes a pinned file (createNew: the entry must not exist, and a link there is not followed). */
export function writeFile(pin: Pin, data: Uint8Array, options: Deno.WriteFileOptions = {}): Promise<void> {
  return Deno.writeFile(pin.path, data, options);
}

/** Copies a pinned regular file onto a pinned new entry's path (the caller's temp file). */
export function copyFile(from: Pin, to: Pin): Promise<void> {
  return Deno.copyFile(from.path, to.path);
}

/**
 * Runs `fn` with a `/proc/self/fd/N` path of the entry at `path` (a temp file in a pinned folder) opened without
 * following it: a symlink swapped in under our temp name is refused instead of having its target changed.
 */
async function atEntryNoFollow<T>(path: string, fn: (object: string) => Promise<T>): Promise<T> {
  const lib = loadLibc();
  if (lib === null) return await fn(path);
  const AT_FDCWD = -100;
  const fd = lib.openat(AT_FDCWD, cString(path), O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
  if (fd < 0) fail(lib, path);
  try {
    if (isSymlinkFd(lib, fd)) throw floorError(ELOOP, path);
    return await fn(`/proc/self/fd/${fd}`);
  } finally {
    lib.close(fd);
  }
}

/** chmod of an entry we created (a temp file), never of what a link swapped in under its name points to. */
export function chmodNoFollow(path: string, mode: number): Promise<void> {
  return atEntryNoFollow(path, (object) => Deno.chmod(object, mode));
}

/** close_range(2): the same number on x86-64 and arm64 (the unified syscall table). */
const SYS_CLOSE_RANGE = 436n;
const CLOSE_RANGE_CLOEXEC = 4;

/**
 * Marks every descriptor from 3 up close-on-exec, so a spawned program inherits only its stdin, stdout and stderr
 * (the server's own descriptors are close-on-exec already; this catches inherited ones and those of native
 * libraries). True when done, false where it cannot be done here.
 */
export function closeFromOnExec(): boolean {
  const lib = loadLibc();
  if (!lib) return false;
  return Number(lib.closeRange(SYS_CLOSE_RANGE, 3, 0xffffffff, CLOSE_RANGE_CLOEXEC)) === 0;
}

/** What {@link readNoSymlinks} found. */
export type NoSymlinkRead =
  /** The file's bytes (at most `max`). */
  | { ok: true; bytes: Uint8Array }
  /** "missing": no such file; "symlink": a symlink on the way; "unreadable": a folder, a pipe, too big, … */
  | { ok: false; why: "missing" | "symlink" | "unreadable" };

/**
 * Reads the file at the absolute real `path` whole when it is at most `max` bytes, refusing any symlink anywhere
 * on the path (the floor anchored at `/`), and anything but a regular file. Undefined where the floor cannot pin.
 */
export async function readNoSymlinks(path: string, max: number): Promise<NoSymlinkRead | undefined> {
  if (loadLibc() === null) return undefined;
  let pin: Pin;
  try {
    pin = pinObject("/", path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
      return { ok: false, why: "missing" };
    }
    if (err instanceof ForbiddenError) return { ok: false, why: "symlink" };
    return { ok: false, why: "unreadable" };
  }
  try {
    const info = statSync(pin);
    if (!info.isFile || info.size > max) return { ok: false, why: "unreadable" };
    const bytes = await readFile(pin);
    return bytes.length > max ? { ok: false, why: "unreadable" } : { ok: true, bytes };
  } catch {
    return { ok: false, why: "unreadable" };
  } finally {
    pin.close();
  }
}

/**
 * A descriptor for reading the file at `real` beneath `anchorReal`, opened in one call (no pin, no second open
 * through /proc): `O_RDONLY | O_NONBLOCK` (a FIFO does not block the open), no symlink followed anywhere, the
 * last name included. For the small reads on a request's thread (downloads of small files); the caller fstats it,
 * reads and closes it with {@link closeFd}. `directory`: a folder, for reading its entries (listings, archives). Null where the floor cannot pin (no FFI, no anchor): the caller's
 * portable path. Throws the floor's errors otherwise.
 */
export function openForRead(
  anchorReal: string,
  real: string,
  options: { directory?: boolean } = {},
): number | null {
  const lib = anchorReal === "" ? null : loadLibc();
  if (lib === null) return null;
  const O_NONBLOCK = 0o4000, O_NOCTTY = 0o400;
  const kind = options.directory ? O_DIRECTORY : O_NONBLOCK | O_NOCTTY;
  return openBeneath(lib, anchorReal, real, kind | O_CLOEXEC);
}

/** Closes a descriptor from {@link openForRead}. */
export function closeFd(fd: number): void {
  loadLibc()?.close(fd);
}
