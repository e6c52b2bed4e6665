/**
 * Linux inotify through libc (FFI), for lib/fs/watch.ts: one non-blocking inotify descriptor, watches added
 * and removed by path, and the event records read without waiting. Nothing here opens a watched entry (see
 * watch.ts for why that matters).
 */

/** Event bits of `inotify_event.mask` (linux/inotify.h). */
export const IN = {
  MODIFY: 0x2,
  ATTRIB: 0x4,
  CLOSE_WRITE: 0x8,
  MOVED_FROM: 0x40,
  MOVED_TO: 0x80,
  CREATE: 0x100,
  DELETE: 0x200,
  DELETE_SELF: 0x400,
  MOVE_SELF: 0x800,
  UNMOUNT: 0x2000,
  Q_OVERFLOW: 0x4000,
  IGNORED: 0x8000,
  ONLYDIR: 0x1000000,
  DONT_FOLLOW: 0x2000000,
  ISDIR: 0x40000000,
} as const;

/**
 * What every watch asks for: changes of entries and of the folder itself. Not IN_OPEN or IN_ACCESS (reading a
 * file changes nothing a listing, a size or the index shows). IN_ONLYDIR and IN_DONT_FOLLOW: only folders
 * are watched, and a symlink swapped in for one is not followed.
 */
export const WATCH_MASK = IN.MODIFY | IN.ATTRIB | IN.CLOSE_WRITE | IN.MOVED_FROM | IN.MOVED_TO | IN.CREATE |
  IN.DELETE | IN.DELETE_SELF | IN.MOVE_SELF | IN.ONLYDIR | IN.DONT_FOLLOW;

/** IN_NONBLOCK | IN_CLOEXEC. */
const INIT_FLAGS = 0o4000 | 0o2000000;

/** errno values the callers tell apart. */
export const ERRNO = { ENOENT: 2, EACCES: 13, ENOTDIR: 20, ENOSPC: 28 } as const;

const SYMBOLS = {
  inotify_init1: { parameters: ["i32"], result: "i32" },
  inotify_add_watch: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  inotify_rm_watch: { parameters: ["i32", "i32"], result: "i32" },
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
    if (Deno.build.os !== "linux") return null;
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return null;
    libc = Deno.dlopen("libc.so.6", SYMBOLS).symbols;
  } catch {
    // No glibc (musl, static builds) or no FFI: no watcher (lib/fs/watch.ts says what then).
  }
  return libc;
}

/** True where {@link Inotify} works (Linux with glibc and the FFI permission). */
export function hasInotify(): boolean {
  return loadLibc() !== null;
}

/** One event record. `name` is empty for events of the watched folder itself. */
export interface InotifyRecord {
  wd: number;
  mask: number;
  name: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An inotify instance; every call is synchronous and none waits. */
export class Inotify {
  readonly #lib: Libc;
  readonly #fd: number;
  readonly #buf = new Uint8Array(64 * 1024);
  #closed = false;

  /** Throws where inotify is not available (see {@link hasInotify}) or the instance cannot be made. */
  constructor() {
    const lib = loadLibc();
    if (lib === null) throw new Error("inotify is not available");
    const fd = lib.inotify_init1(INIT_FLAGS);
    if (fd < 0) throw new Error(`inotify_init1 failed (errno ${errno(lib)})`);
    this.#lib = lib;
    this.#fd = fd;
  }

  /** Watches the folder at `path` ({@link WATCH_MASK}); the watch descriptor, or `-errno`. */
  add(path: string): number {
    const wd = this.#lib.inotify_add_watch(this.#fd, encoder.encode(path + "\0"), WATCH_MASK);
    return wd >= 0 ? wd : -errno(this.#lib);
  }

  /** Removes a watch (an IN_IGNORED record follows); a watch the kernel already removed is no error. */
  remove(wd: number): void {
    this.#lib.inotify_rm_watch(this.#fd, wd);
  }

  /** The records queued so far (none: an empty list); never waits. */
  read(): InotifyRecord[] {
    const out: InotifyRecord[] = [];
    if (this.#closed) return out;
    const buf = this.#buf;
    const view = new DataView(buf.buffer);
    for (;;) {
      const n = Number(this.#lib.read(this.#fd, buf, BigInt(buf.length)));
      if (n <= 0) return out; // EAGAIN: nothing more queued
      for (let at = 0; at + 16 <= n;) {
        const len = view.getUint32(at + 12, true);
        let end = at + 16;
        while (end < at + 16 + len && buf[end] !== 0) end++;
        out.push({
          wd: view.getInt32(at, true),
          mask: view.getUint32(at + 4, true),
          name: decoder.decode(buf.subarray(at + 16, end)),
        });
        at += 16 + len;
      }
    }
  }

  /** Closes the descriptor (and with it every watch). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#lib.close(this.#fd);
  }
}

function errno(lib: Libc): number {
  const at = lib.__errno_location();
  return at === null ? 0 : new Deno.UnsafePointerView(at).getInt32();
}
