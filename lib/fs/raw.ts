/** GET /api/raw (docs/api.md): one file (range, conditional) or a folder/selection as a streamed archive. */
import { NotFoundError } from "../errors.ts";
import { parseFilesParam, planArchive } from "./archive_source.ts";
import { contentDisposition, type DownloadRequest, type FileDownload, planDownload } from "./download.ts";
import { type GateContext, resolveScoped } from "./gate.ts";

/** Query and headers of a raw request. */
export interface RawRequest extends DownloadRequest {
  /** `files` query (decoded once by query parsing). */
  files?: string;
  /** `algo` query. */
  algo?: string;
  signal?: AbortSignal;
}

const ARCHIVE_TYPES: Record<string, string> = { zip: "application/zip", "tar.gz": "application/gzip" };

/** Plans the answer of GET /api/raw: 202 without download, 403/404 through the gate, 400 for a bad algo. */
export async function openRaw(ctx: GateContext, vpath: string, request: RawRequest): Promise<FileDownload> {
  const p = await resolveScoped(ctx, vpath, "download");
  if (p.lstat === null || p.stat === null) throw new NotFoundError();
  if (!p.stat.isDirectory) return planDownload(p, request);
  // The archive writers pull in node:zlib and napi compressors: load them on the first archive, not at start.
  const { archiveExtension, assertFormatAvailable, createArchive, parseArchiveAlgo } = await import(
    "../archive/mod.ts"
  );
  const format = parseArchiveAlgo(request.algo ?? "");
  await assertFormatAvailable(format);
  const plan = await planArchive(ctx, p, { files: parseFilesParam(request.files), signal: request.signal });
  return {
    status: 200,
    headers: {
      "Content-Disposition": contentDisposition(plan.name + archiveExtension(format), { inline: false }),
      "Content-Type": ARCHIVE_TYPES[format] ?? "application/octet-stream",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private",
    },
    body: createArchive(plan.entries, { format, signal: request.signal }),
  };
}
