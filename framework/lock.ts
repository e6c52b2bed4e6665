/**
 * A lock file shared by processes: created with O_EXCL (`createNew`), holding the owner's pid and host. A
 * lock whose owner is gone (same host, no such pid) or that has not been touched for `staleMs` (the owner
 * touches it every `staleMs / 4`) is broken, so a crashed build never blocks the next one.
 */

/** Options of withLockFile. */
export interface LockOptions {
  /** A lock untouched for this long is stale (default 120 s). */
  staleMs?: number;
  /** Pause between attempts (default 100 ms). */
  pollMs?: number;
}

interface Owner {
  pid: number;
  host: string;
}

const HOST = (() => {
  try {
    return Deno.hostname();
  } catch {
    return "";
  }
})();

function isAlive(pid: number): boolean | null {
  if (Deno.build.os !== "linux") return null;
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

async function readOwner(path: string): Promise<Owner | null> {
  try {
    const o = JSON.parse(await Deno.readTextFile(path));
    return typeof o?.pid === "number" && typeof o?.host === "string" ? o : null;
  } catch {
    return null;
  }
}

/** True when the lock at `path` may be broken: its owner died, or it was not touched for `staleMs`. */
async function isStale(path: string, text: string, staleMs: number): Promise<boolean> {
  const st = await Deno.stat(path).catch(() => null);
  if (!st) return false;
  let owner: Owner | null = null;
  try {
    owner = JSON.parse(text);
  } catch {
    // Half-written by an owner that is still starting: judged by its age below.
  }
  if (owner && owner.host === HOST && owner.pid !== Deno.pid && isAlive(owner.pid) === false) return true;
  return !!st.mtime && Date.now() - st.mtime.getTime() > staleMs;
}

/** Breaks a stale lock without breaking a fresh one another process took meanwhile. */
async function breakLock(path: string, seen: string): Promise<void> {
  const aside = `${path}.stale.${Deno.pid}.${crypto.randomUUID()}`;
  try {
    await Deno.rename(path, aside);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return;
    throw err;
  }
  const taken = await Deno.readTextFile(aside).catch(() => "");
  if (taken !== seen) {
    // Someone re-took the lock between our look and the rename: give it back (unless yet another owner exists).
    await Deno.link(aside, path).catch(() => {});
  }
  await Deno.remove(aside).catch(() => {});
}

/** Runs `fn` holding the lock file at `path` (waits while another live process holds it). */
export async function withLockFile<T>(
  path: string,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const staleMs = options.staleMs ?? 120_000;
  const pollMs = options.pollMs ?? 100;
  const mine = JSON.stringify({ pid: Deno.pid, host: HOST, token: crypto.randomUUID() });
  for (;;) {
    try {
      const file = await Deno.open(path, { createNew: true, write: true });
      try {
        await file.write(new TextEncoder().encode(mine));
      } finally {
        file.close();
      }
      break;
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    }
    const seen = await Deno.readTextFile(path).catch(() => null);
    if (seen !== null && await isStale(path, seen, staleMs)) await breakLock(path, seen);
    else await new Promise((r) => setTimeout(r, pollMs));
  }
  // Touch the lock while working, so a long build is never taken for a stale one.
  const heartbeat = setInterval(() => {
    const now = new Date();
    Deno.utime(path, now, now).catch(() => {});
  }, Math.max(1000, staleMs / 4));
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    // Remove only our own lock (it may have been broken and re-taken if we stalled past staleMs).
    if (await Deno.readTextFile(path).catch(() => null) === mine) await Deno.remove(path).catch(() => {});
  }
}

/** The Deno cache directory (DENO_DIR, or the platform default). */
export function denoCacheDir(): string | null {
  const env = (k: string) => Deno.env.get(k) || null;
  if (env("DENO_DIR")) return env("DENO_DIR");
  if (Deno.build.os === "windows") return env("LOCALAPPDATA") && `${env("LOCALAPPDATA")}/deno`;
  if (Deno.build.os === "darwin") return env("HOME") && `${env("HOME")}/Library/Caches/deno`;
  if (env("XDG_CACHE_HOME")) return `${env("XDG_CACHE_HOME")}/deno`;
  return env("HOME") && `${env("HOME")}/.cache/deno`;
}

/** Runs `fn` holding the lock `<Deno cache>/.<name>.lock`, shared by every checkout using that cache. */
export async function withDenoCacheLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = denoCacheDir();
  if (!dir) return await fn();
  await Deno.mkdir(dir, { recursive: true });
  return await withLockFile(`${dir}/.${name}.lock`, fn);
}

/** The owner recorded in a lock file, or null (for messages and tests). */
export function lockOwner(path: string): Promise<Owner | null> {
  return readOwner(path);
}
