/** GET /api/preview/{size} and GET /api/subtitle (docs/api.md#previews-and-subtitles). */
import { pinTarget, readFile, serverPath } from "./floor.ts";
import { BadRequestError, NotFoundError, NotImplementedError, PayloadTooLargeError } from "../errors.ts";
import { canResize, parsePreviewSize, type PreviewCache } from "../thumbs/mod.ts";
import {
  contentDisposition,
  type DownloadRequest,
  type FileDownload,
  fileEtag,
  fileStream,
  INLINE_CSP,
  planDownload,
} from "./download.ts";
import { detectType, readHeadOf } from "./file_info.ts";
import { assertPermission, type GateContext, resolveScoped } from "./gate.ts";
import { extensionOf, vpathBase } from "./path.ts";
import { assToVtt, isSubtitleName, srtToVtt } from "./subtitles.ts";

/** Options of {@link openPreview}. */
export interface PreviewRequest extends DownloadRequest {
  /** config.enableThumbs: `thumb` is resized (else the file is served as it is). */
  enableThumbs: boolean;
  /** config.resizePreview: `big` is resized (else the file is served as it is). */
  resizePreview: boolean;
  previews: Pick<PreviewCache, "getPreview">;
}

/** Plans a preview answer: 202 without download, 400 bad size, 501 for non-images, 413 for huge images. */
export async function openPreview(
  ctx: GateContext,
  size: string,
  vpath: string,
  request: PreviewRequest,
): Promise<FileDownload> {
  assertPermission(ctx.user, "download");
  const previewSize = parsePreviewSize(size);
  const p = await resolveScoped(ctx, vpath, "download");
  if (p.lstat === null || p.stat === null) throw new NotFoundError();
  const name = vpathBase(p.vpath);
  const head = p.stat.isFile ? readHeadOf(p) : new Uint8Array(0);
  const type = p.stat.isDirectory ? "" : detectType(name, { size: p.stat.size, head, canModify: true });
  if (type !== "image") throw new NotImplementedError("not_an_image");
  const enabled = previewSize === "thumb" ? request.enableThumbs : request.resizePreview;
  if (!enabled || !canResize(extensionOf(name))) return planDownload(p, request);
  const preview = await request.previews.getPreview(p, previewSize);
  const etag = fileEtag(p.stat).replace(/"$/, `-${previewSize}"`);
  const headers: Record<string, string> = {
    "Content-Disposition": contentDisposition(name, { inline: request.inline }),
    "Content-Type": preview.contentType,
    "Content-Security-Policy": INLINE_CSP,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private",
    "Last-Modified": (p.stat.mtime ?? new Date(0)).toUTCString(),
    "ETag": etag,
  };
  if (request.ifNoneMatch && request.ifNoneMatch.split(",").some((t) => t.trim() === etag)) {
    return { status: 304, headers, body: null };
  }
  headers["Content-Length"] = String(preview.size);
  return { status: 200, headers, body: fileStream(() => serverPath(preview.path), 0, preview.size) };
}

/** Largest subtitle file converted in memory. */
const MAX_SUBTITLE_BYTES = 16 * 1024 * 1024;

/** Plans GET /api/subtitle: `.srt`/`.ass`/`.ssa` converted to WebVTT, other subtitle files as they are. */
export async function openSubtitle(
  ctx: GateContext,
  vpath: string,
  request: DownloadRequest,
): Promise<FileDownload> {
  const p = await resolveScoped(ctx, vpath, "download");
  if (p.lstat === null || p.stat === null) throw new NotFoundError();
  const name = vpathBase(p.vpath);
  if (!p.stat.isFile || !isSubtitleName(name)) {
    throw new BadRequestError(undefined, { code: "not_a_subtitle" });
  }
  if (p.stat.size > MAX_SUBTITLE_BYTES) throw new PayloadTooLargeError("subtitle_too_large");
  let bytes: Uint8Array<ArrayBuffer>;
  {
    using pin = pinTarget(p);
    bytes = await readFile(pin);
  }
  let out: Uint8Array<ArrayBuffer> = bytes;
  // Case-sensitive like upstream: `.SRT` is served as it is.
  if (name.endsWith(".srt")) out = new TextEncoder().encode(srtToVtt(new TextDecoder().decode(bytes)));
  else if (name.endsWith(".ass") || name.endsWith(".ssa")) {
    out = new TextEncoder().encode(assToVtt(new TextDecoder().decode(bytes)));
  }
  return {
    status: 200,
    headers: {
      "Content-Type": "text/vtt; charset=utf-8",
      "Content-Disposition": contentDisposition(name, { inline: request.inline }),
      "Content-Security-Policy": INLINE_CSP,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private",
      "Content-Length": String(out.length),
    },
    body: new Response(out).body,
  };
}
