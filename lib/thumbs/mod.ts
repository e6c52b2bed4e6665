/**
 * Image previews (docs/api.md): size parsing, which files get resized, and an on-disk preview cache.
 *
 * Decisions:
 * - GIF is not resized (`canResize("gif")` is false): the route serves it raw, like upstream, so animations
 *   keep playing. BMP is not resized either: sharp's prebuilt libvips cannot decode it. WebP is resized.
 * - `thumb` is always a 256×256 centre-cropped JPEG (small sources are upscaled; alpha is put on white).
 *   `big` fits in 1080×1080 without upscaling and keeps the source's format for PNG, GIF and WebP
 *   (transparency, palettes); every other source (JPEG, TIFF) becomes JPEG. The returned `contentType`
 *   always describes the bytes written (unlike upstream, which labels by file name).
 * - The source format is detected from the content, never from the file name.
 * - Entries are never evicted; `dropPreviews()` removes the entries of a file or a tree (see there).
 * - Sources come from the path gate as `ScopedPath`s: this module never sees a user's path. They reach the disk
 *   through the floor (lib/fs/floor.ts): sharp reads the file the gate checked through its pin
 *   (`/proc/self/fd/N`), so a file or folder swapped for a link since the check is refused (403), and folders
 *   are walked pinned (lib/fs/tree.ts). The cache directory is the server's.
 */
import { BadRequestError, ForbiddenError, NotFoundError } from "../errors.ts";
import { placeAtomically } from "../fs/atomic.ts";
import {
  openFile,
  type Pin,
  pinTarget,
  readTextFile,
  remove,
  serverPath,
  stat,
  statSync,
  writeFile,
} from "../fs/floor.ts";
import type { ScopedPath } from "../fs/gate.ts";
import { extensionOf, vpathBase, vpathDir } from "../fs/path.ts";
import { walkTree } from "../fs/tree.ts";
import { log } from "../log.ts";
import { CONTENT_TYPES, MAX_SIDE, type PreviewSize, renderPreview, sniffFormat } from "./_render.ts";
import { Semaphore } from "../semaphore.ts";

export type { PreviewFormat, PreviewSize } from "./_render.ts";

/** Extensions (lower case, no dot) whose files are resized; anything else is served raw. */
const RESIZABLE = new Set(["jpg", "jpeg", "png", "tif", "tiff", "webp"]);

/** Parses the `{size}` URL segment; throws 400 with upstream's message for anything but thumb/big. */
export function parsePreviewSize(s: string): PreviewSize {
  if (s === "thumb" || s === "big") return s;
  throw new BadRequestError(`${s} is not a valid PreviewSize, try [thumb, big]`, {
    code: "invalid_preview_size",
  });
}

/** True when files with this extension (with or without the dot, any case) get a resized preview. */
export function canResize(extension: string): boolean {
  return RESIZABLE.has(extension.replace(/^\./, "").toLowerCase());
}

/** Options of {@link createPreviewService}. */
export interface PreviewServiceOptions {
  /** Directory holding cached previews; created on demand. */
  cacheDir: string;
  /** Largest accepted source in total pixels (default 10000×10000). */
  maxPixels?: number;
  /** Most resizes running at once (default: number of CPUs, at least 1). */
  concurrency?: number;
}

/** A preview file on disk, ready to be streamed. */
export interface Preview {
  path: string;
  contentType: string;
  /** Size of the preview file in bytes. */
  size: number;
}

/** Counters for tests and diagnostics. */
export interface PreviewStats {
  /** Previews encoded by this instance. */
  encoded: number;
  /** Requests answered from the disk cache. */
  hits: number;
  /** Resizes running now. */
  active: number;
  /** Highest number of resizes that ran at once. */
  peakActive: number;
}

/**
 * Makes previews and keeps them in `cacheDir`. Entry name: sha256 of (real path, size, mtime, file size)
 * under a two-level fan-out (`ab/cd/abcd…`). Entries are written to a temp file and renamed into place,
 * concurrent requests for one entry share one job, and a semaphore bounds the number of running resizes.
 */
export class PreviewCache {
  readonly cacheDir: string;
  readonly maxPixels: number;
  readonly concurrency: number;
  #slots: Semaphore;
  #inflight = new Map<string, Promise<Preview>>();
  #stats: PreviewStats = { encoded: 0, hits: 0, active: 0, peakActive: 0 };

  constructor(options: PreviewServiceOptions) {
    this.cacheDir = options.cacheDir.replace(/\/+$/, "") || "/";
    this.maxPixels = options.maxPixels ?? MAX_SIDE * MAX_SIDE;
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? navigator.hardwareConcurrency ?? 1));
    this.#slots = new Semaphore(this.concurrency);
  }

  /** A snapshot of the counters. */
  get stats(): PreviewStats {
    return { ...this.#stats };
  }

  /**
   * Returns the cached preview of a gate-approved file, creating it if needed. The entry is keyed by the
   * file's real path, size and mtime as the gate saw them, so a changed file gets a new preview.
   * Throws 404 when the source is missing or vanished, 413 `image_too_large`, 500 `preview_failed`.
   */
  async getPreview(source: ScopedPath, size: PreviewSize): Promise<Preview> {
    const stat = source.stat;
    if (stat === null || !stat.isFile) throw new NotFoundError();
    const key = await sha256Hex(JSON.stringify([source.real, size, stat.mtime?.getTime() ?? 0, stat.size]));
    const pending = this.#inflight.get(key);
    if (pending) return pending;
    const job = this.#produce(source, { key, size })
      .finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, job);
    return job;
  }

  /**
   * Best-effort removal of every cached preview (all sizes and versions) of a gate-approved file, or of
   * every file that can have one below a folder, for delete, move and overwrite. A symlink's previews
   * belong to its target, which stays. Each created entry is appended to a small per-file index, which is
   * what this reads; it needs no stat of the source. An entry whose job is still running while this runs
   * survives as an unreachable orphan. Returns the number of entries removed.
   */
  async dropPreviews(target: ScopedPath): Promise<number> {
    if (target.lstat?.isSymlink) return 0;
    if (!target.lstat?.isDirectory) return await this.#drop(target.real);
    let removed = 0;
    for await (const { rel, info } of walkTree(target)) {
      // Only files that can have a preview: keeps big trees fast.
      if (info.isFile && canResize(extensionOf(rel))) removed += await this.#drop(`${target.real}/${rel}`);
    }
    return removed;
  }

  async #drop(realPath: string): Promise<number> {
    const index = await this.#indexPath(realPath);
    let text: string;
    try {
      text = await readTextFile(serverPath(index));
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return 0;
      throw err;
    }
    let removed = 0;
    for (const key of new Set(text.split("\n").filter((k) => /^[0-9a-f]{64}$/.test(k)))) {
      if (await removeIfPresent(this.#entryPath(key))) removed++;
    }
    await removeIfPresent(index);
    return removed;
  }

  async #produce(source: ScopedPath, job: { key: string; size: PreviewSize }): Promise<Preview> {
    const file = this.#entryPath(job.key);
    const hit = await readEntry(file);
    if (hit) {
      this.#stats.hits++;
      return hit;
    }
    return await this.#slots.run(async () => {
      // Another process sharing the cache directory may have finished it while we queued.
      const late = await readEntry(file);
      if (late) {
        this.#stats.hits++;
        return late;
      }
      this.#stats.active++;
      this.#stats.peakActive = Math.max(this.#stats.peakActive, this.#stats.active);
      try {
        return await this.#encode(source, { ...job, file });
      } finally {
        this.#stats.active--;
      }
    });
  }

  async #encode(source: ScopedPath, job: { key: string; size: PreviewSize; file: string }): Promise<Preview> {
    const name = vpathBase(source.real);
    // Placed atomically: readers never see a half-written preview. Unsynced: a cache entry lost in a crash
    // is made again.
    const format = await placeAtomically(
      job.file,
      async (temp) => {
        // sharp opens the pinned object (twice: header, then pixels) while the pin is held.
        using pin = pinSource(source, name);
        return await renderPreview(pin.path, temp, { size: job.size, maxPixels: this.maxPixels, name });
      },
      { kind: "preview", createParents: true, sync: false },
    );
    this.#stats.encoded++;
    await this.#remember(source.real, job.key);
    const { size } = await stat(serverPath(job.file));
    return { path: job.file, contentType: CONTENT_TYPES[format], size };
  }

  async #remember(realPath: string, key: string): Promise<void> {
    const index = await this.#indexPath(realPath);
    try {
      await Deno.mkdir(vpathDir(index), { recursive: true });
      // Small O_APPEND writes do not interleave, so concurrent jobs for one path can share the index.
      await writeFile(serverPath(index), new TextEncoder().encode(key + "\n"), { append: true });
    } catch (err) {
      // The preview itself is fine; only dropPreviews() loses track of it.
      log.warn(`Cannot record preview for "${realPath}" in the cache index`, err);
    }
  }

  #entryPath(key: string): string {
    return `${this.cacheDir}/${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`;
  }

  async #indexPath(realPath: string): Promise<string> {
    const hash = await sha256Hex(realPath);
    return `${this.cacheDir}/index/${hash.slice(0, 2)}/${hash}`;
  }
}

/** Creates the preview service used by the preview route. */
export function createPreviewService(options: PreviewServiceOptions): PreviewCache {
  return new PreviewCache(options);
}

/**
 * Pins the checked source file for sharp: 404 as sharp's own "file is missing" when it is gone, 403 when it (or
 * a folder on the way) is a link now, or no regular file (a FIFO would block the decoder's thread).
 */
function pinSource(source: ScopedPath, name: string): Pin {
  let pin: Pin;
  try {
    pin = pinTarget(source);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory)) throw err;
    throw new NotFoundError("not_found", `Cannot create a preview of "${name}": file is missing`, {
      cause: err,
    });
  }
  try {
    if (!statSync(pin).isFile) throw new ForbiddenError("not_regular", "Not a regular file");
  } catch (err) {
    pin.close();
    throw err;
  }
  return pin;
}

/** Reads a cache entry's size and format; null when absent (or unreadable garbage, which is removed). */
async function readEntry(file: string): Promise<Preview | null> {
  let handle: Deno.FsFile;
  try {
    handle = await openFile(serverPath(file));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  try {
    const head = new Uint8Array(12);
    const read = (await handle.read(head)) ?? 0;
    const format = sniffFormat(head.subarray(0, read));
    const { size } = await handle.stat();
    if (format) return { path: file, contentType: CONTENT_TYPES[format], size };
  } finally {
    handle.close();
  }
  log.warn(`Removing unrecognised preview cache entry "${file}"`);
  await removeIfPresent(file);
  return null;
}

async function removeIfPresent(path: string): Promise<boolean> {
  try {
    await remove(serverPath(path));
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    log.warn(`Cannot remove preview cache file "${path}"`, err);
    return false;
  }
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
