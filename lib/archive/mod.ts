/**
 * Streaming archives for downloads (docs/api.md#downloads): zip and tar with eight compressions.
 * The caller supplies already-authorised entries; this module knows nothing about users or rules.
 */
import { BadRequestError, HttpError } from "../errors.ts";
import { assertCompressionAvailable, compressTar, type TarCompression, type ToolPaths } from "./compress.ts";
import type { ArchiveEntry } from "./entry.ts";
import { streamFromGenerator } from "./stream.ts";
import { tarChunks } from "./tar.ts";
import { zipChunks } from "./zip.ts";

export { type ArchiveEntry, sanitizeEntryName } from "./entry.ts";
export { fileReadable } from "./file_stream.ts";
export type { ToolPaths } from "./compress.ts";

/** An archive format, named by its file extension without the leading dot. */
export type ArchiveFormat =
  | "zip"
  | "tar"
  | "tar.gz"
  | "tar.bz2"
  | "tar.xz"
  | "tar.lz4"
  | "tar.sz"
  | "tar.br"
  | "tar.zst";

/** Options of createArchive. */
export interface CreateArchiveOptions {
  format: ArchiveFormat;
  /** Aborting stops reading files, kills a compressor process and errors the stream. */
  signal?: AbortSignal;
  /** Zip only: "store" (default) or "deflate". */
  zipMethod?: "store" | "deflate";
  /** Zip only, a test hook: write ZIP64 records even for a small archive. */
  forceZip64?: boolean;
  /** Paths of bzip2/xz (tests inject missing ones). */
  tools?: ToolPaths;
}

const ALGO_FORMATS: Record<string, ArchiveFormat> = {
  "": "zip",
  zip: "zip",
  true: "zip",
  tar: "tar",
  targz: "tar.gz",
  tarbz2: "tar.bz2",
  tarxz: "tar.xz",
  tarlz4: "tar.lz4",
  tarsz: "tar.sz",
  tarbr: "tar.br",
  tarzst: "tar.zst",
};

/** Maps the `algo` query value of /api/raw to a format; unknown values are a 400 (upstream: 500). */
export function parseArchiveAlgo(algo: string): ArchiveFormat {
  if (Object.hasOwn(ALGO_FORMATS, algo)) return ALGO_FORMATS[algo];
  throw new BadRequestError(
    `Cannot create the archive: unknown format "${algo}" (use zip, tar, targz, tarbz2, tarxz, tarlz4, tarsz, tarbr or tarzst)`,
    { code: "bad_archive_format" },
  );
}

/** The file extension of a format, with the leading dot (".tar.gz"). */
export function archiveExtension(format: ArchiveFormat): string {
  return `.${format}`;
}

function tarCompression(format: ArchiveFormat): TarCompression | null {
  return format.startsWith("tar.") ? format.slice(4) as TarCompression : null;
}

/** Throws UnavailableError (503) naming the missing tool when the format cannot be produced here. */
export async function assertFormatAvailable(
  format: ArchiveFormat,
  options: { tools?: ToolPaths } = {},
): Promise<void> {
  const compression = tarCompression(format);
  if (compression !== null) await assertCompressionAvailable(compression, options);
}

/** Whether this server can produce the format (a system tool or native addon may be missing). */
export async function isFormatAvailable(
  format: ArchiveFormat,
  options: { tools?: ToolPaths } = {},
): Promise<boolean> {
  try {
    await assertFormatAvailable(format, options);
    return true;
  } catch (err) {
    if (err instanceof HttpError && err.status === 503) return false;
    throw err;
  }
}

/**
 * Streams an archive of the entries as the consumer pulls: files are read in order (a few are
 * opened ahead, see PREFETCH_DEPTH), so memory stays bounded whatever the entry count or size.
 * Entry names go through sanitizeEntryName (refused ones are skipped with a warning). A file that
 * cannot be opened or read whole (gone, unreadable, shorter than its stat'ed size) errors the stream
 * with entryFailure's message naming it: an archive never ends silently short.
 * Cancelling the stream or aborting `signal` closes the open files and kills a compressor process.
 * Route use: `await assertFormatAvailable(format)` first (503 before any byte is sent), then
 * `new Response(createArchive(entries, { format, signal: req.signal }))`, with each file's
 * `open: async () => fileReadable(await Deno.open(realPath), { size })`.
 */
export function createArchive(
  entries: AsyncIterable<ArchiveEntry>,
  options: CreateArchiveOptions,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const { format, signal } = options;
  const chunks = format === "zip"
    ? zipChunks(entries, { signal, method: options.zipMethod, forceZip64: options.forceZip64 })
    : tarChunks(entries, { signal });
  const raw = streamFromGenerator(chunks, { signal });
  const compression = tarCompression(format);
  return compression === null ? raw : compressTar(raw, compression, { tools: options.tools });
}
