/**
 * Two Linux system calls Deno has no API for, through libc's `syscall()` (FFI): `close_range()` to mark every
 * inherited descriptor close-on-exec before a command is spawned, and `openat2()` to open a file without following
 * any symlink on the way. Each answers `undefined` where it is not available (not Linux with glibc, no FFI
 * permission, an old kernel), and the caller takes its portable path.
 */

/** close_range(2) and openat2(2): the same numbers on x86-64 and arm64 (the unified syscall table). */
const SYS_CLOSE_RANGE = 436n;
const SYS_OPENAT2 = 437n;
const CLOSE_RANGE_CLOEXEC = 4;
const AT_FDCWD = -100;
const O_RDONLY = 0;
const O_NONBLOCK = 0o4000;
const O_NOCTTY = 0o400;
const O_CLOEXEC = 0o2000000;
/** Resolution flags of openat2(2). */
const RESOLVE_NO_MAGICLINKS = 0x02;
const RESOLVE_NO_SYMLINKS = 0x04;
const ENOENT = 2;
const ENOTDIR = 20;
const ELOOP = 40;
const ENOSYS = 38;
const EINTR = 4;

const SYMBOLS = {
  closeRange: { name: "syscall", parameters: ["i64", "u32", "u32", "u32"], result: "i64" },
  openat2: { name: "syscall", parameters: ["i64", "i32", "buffer", "buffer", "usize"], result: "i64" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  close: { parameters: ["i32"], result: "i32" },
  __errno_location: { parameters: [], result: "pointer" },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

let libc: Libc | null | undefined;

function loadLibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  try {
    if (Deno.build.os !== "linux" || !["x86_64", "aarch64"].includes(Deno.build.arch)) return null;
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return null;
    libc = Deno.dlopen("libc.so.6", SYMBOLS).symbols;
  } catch {
    // No glibc (musl, static builds): the callers' portable paths.
  }
  return libc;
}

function errno(lib: Libc): number {
  const at = lib.__errno_location();
  return at === null ? 0 : new Deno.UnsafePointerView(at).getInt32();
}

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
 * Reads the file at the absolute `path` whole when it is at most `max` bytes, refusing any symlink anywhere on the
 * path (openat2 with RESOLVE_NO_SYMLINKS, O_NONBLOCK so a named pipe cannot block the server). Undefined where
 * openat2 is not available.
 */
export function readNoSymlinks(path: string, max: number): NoSymlinkRead | undefined {
  const lib = loadLibc();
  if (!lib) return undefined;
  // struct open_how { u64 flags; u64 mode; u64 resolve; }
  const how = new BigUint64Array([
    BigInt(O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC),
    0n,
    BigInt(RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS),
  ]);
  const cPath = new TextEncoder().encode(path + "\0");
  let fd: number;
  do {
    fd = Number(lib.openat2(SYS_OPENAT2, AT_FDCWD, cPath, new Uint8Array(how.buffer), 24n));
  } while (fd < 0 && errno(lib) === EINTR);
  if (fd < 0) {
    const e = errno(lib);
    if (e === ENOSYS) return undefined;
    if (e === ENOENT || e === ENOTDIR) return { ok: false, why: "missing" };
    return { ok: false, why: e === ELOOP ? "symlink" : "unreadable" };
  }
  try {
    const buf = new Uint8Array(max + 1);
    let n = 0;
    while (n < buf.length) {
      const r = Number(lib.read(fd, buf.subarray(n), BigInt(buf.length - n)));
      if (r < 0 && errno(lib) === EINTR) continue;
      // A folder (EISDIR), a pipe without data (EAGAIN) or a read error: nothing to use.
      if (r < 0) return { ok: false, why: "unreadable" };
      if (r === 0) break;
      n += r;
    }
    return n > max ? { ok: false, why: "unreadable" } : { ok: true, bytes: buf.subarray(0, n) };
  } finally {
    lib.close(fd);
  }
}
