/**
 * The checks of an extraction before anything is written: the archive and the destination through the
 * gate, the format, and a first pass over the entries (headers only) that refuses hostile names (400) and
 * archives past the limits on entries, total size or compression ratio (413). Zip archives may lie about
 * their sizes; the write pass enforces the real ones too.
 */
import { BadRequestError, ConflictError, HttpError, NotFoundError, PayloadTooLargeError } from "../errors.ts";
import { DIR_MODE } from "../fs/atomic.ts";
import { ensureDirBeneath } from "../fs/floor.ts";
import { assertPermission, resolveScoped, type ScopedPath } from "../fs/gate.ts";
import { vpathDir } from "../fs/path.ts";
import type { FsRequest } from "../fs/request.ts";
import { reserveQuota } from "../upload/reservations.ts";
import { checkEntryName } from "./entry_name.ts";
import { type ExtractConflict, type ExtractFormat, extractFormatOf } from "./formats.ts";
import { assertFormatAvailable, damagedStream, openHeaders } from "./source.ts";

/** Limits of one extraction (docs/configuration.md). */
export interface ExtractLimits {
  maxEntries: number;
  /** Most bytes written in all. */
  maxBytes: number;
  /** Most uncompressed bytes per archive byte, judged once the output passes {@link RATIO_FLOOR}. */
  maxRatio: number;
}

/** The defaults: 100,000 entries, 10 GiB, ratio 200. */
export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxEntries: 100_000,
  maxBytes: 10 * 2 ** 30,
  maxRatio: 200,
};

/** Output up to this size is never refused for its ratio (a tiny archive of a sparse file is fine). */
const RATIO_FLOOR = 1 << 20;

/**
 * The first pass hands the event loop a turn after this many entries. Headers already in memory are read as
 * one chain of microtasks, and V8 only advances incremental garbage collection in tasks between them. With
 * zip.js (which built some KiB of objects per zip entry) this had to be every 32 entries; our zip directory
 * reader leaves little garbage and reads the file every 64 KiB (~900 entries) anyway, and each turn costs a
 * timer (32 cost 0.7 s of the 10,000-entry first pass in bench/extract.ts, for no lower peak).
 */
const SCAN_YIELD_EVERY = 1024;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Options of {@link planExtract}. */
export interface ExtractOptions {
  /** Folder to extract into; default: the archive's folder. */
  destination?: string;
  conflict: ExtractConflict;
  limits: ExtractLimits;
  signal?: AbortSignal;
}

/** A checked extraction, ready for the write pass. */
export interface ExtractPlan {
  req: FsRequest;
  archive: ScopedPath;
  format: ExtractFormat;
  dest: ScopedPath;
  conflict: ExtractConflict;
  limits: ExtractLimits;
  /** Totals of the first pass (declared sizes). */
  entries: number;
  bytes: number;
  /** Most bytes the write pass may produce (size and ratio limits combined). */
  budget: number;
}

/** Parses the `conflict` query value (default `skip`). */
export function parseConflict(value: string | undefined): ExtractConflict {
  if (value === undefined || value === "") return "skip";
  if (value === "skip" || value === "replace" || value === "rename") return value;
  throw new BadRequestError(`unknown conflict policy "${value}" (use skip, replace or rename)`, {
    code: "bad_conflict",
  });
}

function quoted(name: string): string {
  return JSON.stringify(name.length > 60 ? name.slice(0, 60) + "…" : name);
}

/** Checks everything that can be checked before writing; throws 400/403/404/409/413/503. */
export async function planExtract(
  req: FsRequest,
  archiveVpath: string,
  options: ExtractOptions,
): Promise<ExtractPlan> {
  const archive = await resolveScoped(req.gate, archiveVpath, "read");
  if (archive.stat === null) throw new NotFoundError();
  if (!archive.stat.isFile) {
    throw new BadRequestError(`Cannot extract "${archive.vpath}": not a file`, { code: "not_archive" });
  }
  const format = extractFormatOf(archive.vpath);
  if (format === null) {
    throw new BadRequestError(`Cannot extract "${archive.vpath}": not a zip or tar archive`, {
      code: "not_archive",
    });
  }
  let dest = await resolveScoped(req.gate, options.destination ?? vpathDir(archive.vpath), "create");
  if (options.conflict === "replace") assertPermission(req.gate.user, "modify");
  if (dest.stat !== null && !dest.stat.isDirectory) {
    throw new ConflictError("not_a_directory", `Cannot extract into "${dest.vpath}": not a folder`);
  }
  await assertFormatAvailable(format);
  const { limits } = options;
  const budget = Math.min(limits.maxBytes, Math.max(RATIO_FLOOR, limits.maxRatio * archive.stat.size));
  const totals = await scanEntries(archive, format, { limits, budget, signal: options.signal });
  // The declared sizes must fit the quota now (507 before anything is written); the write pass holds the
  // real bytes as they come.
  if (req.deps) await (await reserveQuota(req.deps, req.user, totals.bytes)).release();
  if (dest.stat === null) {
    // One folder at a time in pinned parents: a folder swapped for a link since the check is refused (403).
    ensureDirBeneath(dest.confinement.anchor, dest.real, DIR_MODE);
    // Read the new folder back through the gate: it passed the same checks a moment ago.
    dest = await resolveScoped(req.gate, dest.vpath, "create");
  }
  return { req, archive, format, dest, conflict: options.conflict, limits, budget, ...totals };
}

/** The first pass: counts entries and declared bytes, refusing hostile names and limit breaches early. */
async function scanEntries(
  archive: ScopedPath,
  format: ExtractFormat,
  options: { limits: ExtractLimits; budget: number; signal?: AbortSignal },
): Promise<{ entries: number; bytes: number }> {
  const { limits, budget, signal } = options;
  const opened = await openHeaders(archive, format, { signal });
  let entries = 0;
  let bytes = 0;
  try {
    for await (const item of opened.items) {
      signal?.throwIfAborted();
      if (entries % SCAN_YIELD_EVERY === SCAN_YIELD_EVERY - 1) await nextTask();
      if (++entries > limits.maxEntries) {
        throw new PayloadTooLargeError(
          "too_many_entries",
          `Cannot extract: the archive has more than ${limits.maxEntries} entries`,
        );
      }
      const verdict = checkEntryName(item.name);
      if (!verdict.ok && verdict.hostile) {
        throw new BadRequestError(
          `Cannot extract: entry ${quoted(item.name)} points outside the destination`,
          {
            code: "hostile_entry",
          },
        );
      }
      if (item.kind === "file") bytes += item.size;
      if (bytes > limits.maxBytes) {
        throw new PayloadTooLargeError(
          "archive_too_large",
          `Cannot extract: the archive expands to more than ${limits.maxBytes} bytes`,
        );
      }
      if (bytes > budget) {
        throw new PayloadTooLargeError(
          "compression_ratio",
          `Cannot extract: the archive expands more than ${limits.maxRatio} times its size`,
        );
      }
    }
  } catch (err) {
    if (err instanceof HttpError || signal?.aborted) throw err;
    throw damagedStream(format, err);
  } finally {
    await opened.close();
  }
  return { entries, bytes };
}
