/** The sharp pipeline behind previews: dimension checks, resize, encode, error mapping. */
import type Sharp from "sharp";

// sharp (libvips) costs ~250 ms and ~30 MiB to load: load it on the first preview, not at server start.
let sharpModule: Promise<typeof Sharp> | null = null;
function loadSharp(): Promise<typeof Sharp> {
  sharpModule ??= import("sharp").then((m) => m.default);
  return sharpModule;
}
import { HttpError, NotFoundError, PayloadTooLargeError } from "../errors.ts";

/** Which preview: a 256×256 listing thumbnail or a ≤1080 px viewer image. */
export type PreviewSize = "thumb" | "big";

/** Formats a preview is written in. */
export type PreviewFormat = "jpeg" | "png" | "gif" | "webp";

/** Longest allowed source side in pixels. */
export const MAX_SIDE = 10_000;
/** Edge of the square thumbnail. */
export const THUMB_SIDE = 256;
/** Bounding box of the big preview. */
export const BIG_SIDE = 1080;
/** JPEG / WebP quality used for previews. */
export const QUALITY = 80;
/** A single resize that takes longer than this is aborted (a pathological file must not hold a slot). */
const TIMEOUT_SECONDS = 60;

/** Content types of the formats we write. */
export const CONTENT_TYPES: Record<PreviewFormat, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
};

/** Options for {@link renderPreview}. */
export interface RenderOptions {
  size: PreviewSize;
  maxPixels: number;
  /** The file's name for messages (default: the last segment of `src`, which may be a `/proc/self/fd/N` pin). */
  name?: string;
}

/**
 * Writes the preview of `src` to `dst` and returns its format. Throws 413 for oversized
 * sources, 404 when the source vanished and 500 `preview_failed` when it cannot be decoded.
 */
export async function renderPreview(
  src: string,
  dst: string,
  options: RenderOptions,
): Promise<PreviewFormat> {
  // failOn "error": tolerate the small warnings many camera/phone files carry, still refuse garbage.
  const input = { limitInputPixels: options.maxPixels, failOn: "error" as const };
  const name = options.name ?? src.slice(src.lastIndexOf("/") + 1);
  try {
    // metadata() reads only the header, so a decompression bomb is refused before any decoding.
    const sharp = await loadSharp();
    const meta = await sharp(src, input).metadata();
    checkDimensions(meta.width ?? 0, meta.height ?? 0, { maxPixels: options.maxPixels, name });
    const format = outputFormat(meta.format ?? "", options.size);
    let pipeline = sharp(src, input).timeout({ seconds: TIMEOUT_SECONDS }).autoOrient();
    pipeline = options.size === "thumb"
      ? pipeline.resize(THUMB_SIDE, THUMB_SIDE, { fit: "cover", position: "centre" })
      : pipeline.resize(BIG_SIDE, BIG_SIDE, { fit: "inside", withoutEnlargement: true });
    if (format === "jpeg") {
      // JPEG has no alpha: put transparent pixels on white rather than sharp's default black.
      if (meta.hasAlpha) pipeline = pipeline.flatten({ background: "#ffffff" });
      pipeline = pipeline.jpeg({ quality: QUALITY });
    } else if (format === "png") pipeline = pipeline.png();
    else if (format === "gif") pipeline = pipeline.gif();
    else pipeline = pipeline.webp({ quality: QUALITY });
    // No withMetadata(): sharp drops EXIF/XMP/ICC (after converting to sRGB) by default.
    await pipeline.toFile(dst);
    return format;
  } catch (err) {
    throw translateError(err, name);
  }
}

/** Output format: thumbs are always JPEG; big keeps png/gif/webp (alpha, palette) and is JPEG otherwise. */
function outputFormat(sourceFormat: string, size: PreviewSize): PreviewFormat {
  if (size === "thumb") return "jpeg";
  if (sourceFormat === "png" || sourceFormat === "gif" || sourceFormat === "webp") return sourceFormat;
  return "jpeg";
}

function checkDimensions(width: number, height: number, options: { maxPixels: number; name: string }): void {
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > options.maxPixels) {
    throw new PayloadTooLargeError(
      "image_too_large",
      `Cannot create a preview of "${options.name}": ${width}×${height} pixels is too large`,
    );
  }
}

function translateError(err: unknown, name: string): HttpError {
  if (err instanceof HttpError) return err;
  const text = err instanceof Error ? err.message : String(err);
  if (/exceeds pixel limit/i.test(text)) {
    return new PayloadTooLargeError("image_too_large", `Cannot create a preview of "${name}": ${text}`, {
      cause: err,
    });
  }
  if (/Input file is missing/i.test(text)) {
    return new NotFoundError("not_found", `Cannot create a preview of "${name}": file is missing`, {
      cause: err,
    });
  }
  return new HttpError(500, "preview_failed", `Cannot create a preview of "${name}": ${text}`, {
    cause: err,
  });
}

/** Detects the format of a preview file we wrote from its first bytes. */
export function sniffFormat(head: Uint8Array): PreviewFormat | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpeg";
  if (head[0] === 0x89 && ascii(1, 4) === "PNG") return "png";
  if (ascii(0, 4) === "GIF8") return "gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}
