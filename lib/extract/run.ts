/**
 * The write pass of an extraction: every entry goes through the gate as an upload would (rules, hiding,
 * confinement, name checks), links and special files are skipped, conflicts follow the plan's policy, and
 * each file is written atomically with the upload hooks around it. Aborting stops after removing the file in
 * progress (its temp file); files already complete stay. Folders are made through the disk floor
 * (lib/fs/floor.ts), one at a time in pinned parents, so nothing is created through a folder swapped for a link.
 */
import { BadRequestError, ForbiddenError, HttpError, PayloadTooLargeError, toHttpError } from "../errors.ts";
import { withHooks } from "../hooks.ts";
import { log } from "../log.ts";
import { DIR_MODE, writeFileAtomic } from "../fs/atomic.ts";
import { ensureDirBeneath, pinRealIn, pinTarget, statSync, utime } from "../fs/floor.ts";
import { resolveScoped, type ScopedPath } from "../fs/gate.ts";
import { joinVpath, vpathBase, vpathDir } from "../fs/path.ts";
import { hookContext } from "../fs/request.ts";
import { numberedName } from "../fs/transfer.ts";
import type { ExtractEvent, ExtractSkipReason } from "../types.ts";
import { type QuotaHold, reserveQuota } from "../upload/reservations.ts";
import { youngCollector } from "../young_gc.ts";
import { checkEntryName } from "./entry_name.ts";
import type { ArchiveItem } from "./item.ts";
import type { ExtractPlan } from "./plan.ts";
import { damagedStream, openArchive } from "./source.ts";

/** Progress lines are sent at most this often. */
const PROGRESS_MS = 250;
/** Skip lines beyond this many are only counted. */
const MAX_SKIP_LINES = 1000;
/** Most `name(N)` candidates tried for `conflict=rename`. */
const MAX_AUTO_NAMES = 1000;

/**
 * Work (bytes written, plus {@link ENTRY_WORK} per entry) between two young-generation collections
 * (lib/young_gc.ts): every entry leaves read and inflate buffers, streams and a file handle behind, and with
 * V8's default young generation a zip of 10,000 files of 4 KiB peaked at 132 MiB instead of 74 MiB
 * (bench/extract.ts).
 */
export const EXTRACT_GC_WORK = 512 * 1024;
/** What an entry counts towards {@link EXTRACT_GC_WORK} besides its bytes. */
const ENTRY_WORK = 16 * 1024;

const LINK_REASONS: Record<string, ExtractSkipReason> = {
  symlink: "symlink",
  hardlink: "hardlink",
  other: "special",
};

/** Runs the write pass and yields its events; ends with a `done` or an `error` event. */
export async function* runExtract(plan: ExtractPlan, signal?: AbortSignal): AsyncGenerator<ExtractEvent> {
  yield { type: "start", entries: plan.entries, bytes: plan.bytes };
  // The declared bytes are held from the start (entries are cut off at their declared size, so the hold never
  // needs to grow): of parallel extractions that together exceed the quota, the first to get here finishes and
  // the others end with 507 at once, instead of all growing into the quota and none finishing. The hold shrinks
  // as files land (settle) and is released at the end.
  let held: QuotaHold | null = null;
  try {
    held = plan.req.deps ? await reserveQuota(plan.req.deps, plan.req.user, plan.bytes) : null;
  } catch (err) {
    const http = toHttpError(err);
    yield { type: "error", status: http.status, message: http.expose ? http.message : String(http.status) };
    return;
  }
  await using hold = held;
  const state = { files: 0, folders: 0, skipped: 0, bytes: 0, entries: 0, replaced: 0, hold };
  let lastProgress = Date.now();
  let opened;
  try {
    opened = await openArchive(plan.archive, plan.format, { signal });
  } catch (err) {
    // Gone since the plan, or no longer reached without a link (403): reported like any other failure.
    const http = toHttpError(err);
    yield { type: "error", status: http.status, message: http.expose ? http.message : String(http.status) };
    return;
  }
  const items = opened.items[Symbol.asyncIterator]();
  const collect = youngCollector(EXTRACT_GC_WORK);
  try {
    for (;;) {
      let next: IteratorResult<ArchiveItem>;
      try {
        next = await items.next();
      } catch (err) {
        // Parser and decompressor failures (TypeError, a tool's exit code) are the archive's fault.
        throw err instanceof HttpError || signal?.aborted ? err : damagedStream(plan.format, err);
      }
      if (next.done) break;
      const item = next.value;
      signal?.throwIfAborted();
      state.entries++;
      const bytesBefore = state.bytes;
      const reason = await extractItem(plan, item, state, signal);
      collect(ENTRY_WORK + state.bytes - bytesBefore);
      if (reason !== null) {
        if (++state.skipped <= MAX_SKIP_LINES) yield { type: "skip", name: item.name, reason };
      }
      if (Date.now() - lastProgress >= PROGRESS_MS) {
        lastProgress = Date.now();
        yield { type: "progress", entries: state.entries, bytes: state.bytes, name: item.name };
      }
    }
  } catch (err) {
    if (signal?.aborted) throw err;
    const http = toHttpError(err);
    // 507 (quota) is the user's limit, not a server fault.
    if (http.status >= 500 && http.status !== 507) log.error("extract: failed", err);
    yield { type: "error", status: http.status, message: http.expose ? http.message : String(http.status) };
    return;
  } finally {
    await opened.close();
  }
  const { files, folders, skipped, bytes } = state;
  yield { type: "done", files, folders, skipped, bytes };
}

interface Totals {
  files: number;
  folders: number;
  bytes: number;
  /** Bytes of the files replaced so far (`conflict=replace`): they no longer count against the quota. */
  replaced: number;
  hold: QuotaHold | null;
}

/** Extracts one entry; returns why it was skipped, or null. */
async function extractItem(
  plan: ExtractPlan,
  item: ArchiveItem,
  totals: Totals,
  signal?: AbortSignal,
): Promise<ExtractSkipReason | null> {
  const verdict = checkEntryName(item.name);
  if (!verdict.ok) {
    if (verdict.hostile) {
      // The archive changed since the first pass.
      throw new BadRequestError("Cannot extract: an entry points outside the destination", {
        code: "hostile_entry",
      });
    }
    // `./` (the archive's own root, common in tar files made with `-C dir .`) is the destination itself.
    return verdict.reason === "empty" && item.kind === "dir" ? null : "bad_name";
  }
  if (item.kind in LINK_REASONS) return LINK_REASONS[item.kind];
  let target: ScopedPath;
  try {
    target = await resolveScoped(
      plan.req.gate,
      joinVpath(plan.dest.vpath, verdict.segments.join("/")),
      "create",
    );
  } catch (err) {
    if (err instanceof ForbiddenError) return err.code === "hidden" ? "hidden" : "denied";
    if (err instanceof HttpError && err.status < 500) return "bad_name";
    throw err;
  }
  if (item.kind === "dir") {
    if (target.stat?.isDirectory) return null;
    if (target.lstat !== null) return "not_folder";
    ensureDirBeneath(target.confinement.anchor, target.real, DIR_MODE);
    totals.folders++;
    return null;
  }
  const netBefore = totals.bytes - totals.replaced;
  if (target.lstat !== null) {
    if (target.stat?.isDirectory) return "is_folder";
    if (plan.conflict === "skip") return "exists";
    if (plan.conflict === "rename") target = await freeName(plan, target);
    else {
      await plan.req.previews?.dropPreviews(target).catch(() => 0);
      if (target.stat?.isFile) totals.replaced += target.stat.size;
    }
  }
  const content = limitedContent(plan, item, totals);
  const dest = target;
  await withHooks(plan.req.hooks, "upload", hookContext(plan.req, dest.path), async () => {
    ensureParentOf(dest);
    await writeFileAtomic(dest, content, { signal });
    if (item.mtime && !Number.isNaN(item.mtime.getTime())) {
      try {
        using written = pinTarget(dest);
        await utime(written, new Date(), item.mtime);
      } catch (err) {
        log.debug("extract: utime", err);
      }
    }
  });
  // The file is in place: the quota usage counts it from now on, the hold need not.
  totals.hold?.settle(totals.bytes - totals.replaced - netBefore);
  totals.files++;
  return null;
}

/**
 * Makes the missing folders above a file about to be written, one at a time in pinned parents: a folder swapped
 * for a link since the gate's check (the before hook ran in between) is refused (403), never followed. A folder
 * that is there costs one pin (most entries of an archive land in a folder that exists by then).
 */
function ensureParentOf(dest: ScopedPath): void {
  const dir = vpathDir(dest.real);
  try {
    using folder = pinRealIn(dest, dir);
    if (statSync(folder).isDirectory) return;
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  ensureDirBeneath(dest.confinement.anchor, dir, DIR_MODE);
}

async function freeName(plan: ExtractPlan, taken: ScopedPath): Promise<ScopedPath> {
  const dir = vpathDir(taken.vpath);
  const name = vpathBase(taken.vpath);
  for (let n = 1; n <= MAX_AUTO_NAMES; n++) {
    const candidate = await resolveScoped(plan.req.gate, joinVpath(dir, numberedName(name, n)), "create");
    if (candidate.lstat === null) return candidate;
  }
  throw new BadRequestError(`Cannot find a free name for "${taken.vpath}"`, { code: "no_free_name" });
}

/**
 * The entry's content, cut off with an error as soon as it passes its declared size (a zip that lies) or the
 * plan's budget: nothing past the limit reaches the disk. Read errors are blamed on the archive (400).
 */
function limitedContent(plan: ExtractPlan, item: ArchiveItem, totals: Totals): ReadableStream<Uint8Array> {
  const reader = item.content().getReader();
  let written = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw err instanceof HttpError ? err : damagedStream(plan.format, err);
      }
      if (chunk.done) return controller.close();
      written += chunk.value.length;
      totals.bytes += chunk.value.length;
      if (written > item.size) {
        throw new BadRequestError(`Cannot extract: entry "${item.name}" is larger than the archive says`, {
          code: "bad_archive",
        });
      }
      if (totals.bytes > plan.budget) {
        throw new PayloadTooLargeError(
          "archive_too_large",
          `Cannot extract: the archive expands past the limit (${plan.budget} bytes)`,
        );
      }
      await totals.hold?.grow(totals.bytes - totals.replaced);
      controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
