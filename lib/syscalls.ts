/**
 * Linux system calls Deno has no API for, through libc's `syscall()` (FFI): `close_range()` to mark every
 * inherited descriptor close-on-exec before a command is spawned. Where it is not available (not Linux with
 * glibc, no FFI permission, an old kernel) the caller is told so.
 */

/** close_range(2): the same number on x86-64 and arm64 (the unified syscall table). */
const SYS_CLOSE_RANGE = 436n;
const CLOSE_RANGE_CLOEXEC = 4;

const SYMBOLS = {
  closeRange: { name: "syscall", parameters: ["i64", "u32", "u32", "u32"], result: "i64" },
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
