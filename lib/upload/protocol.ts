/** The tus 1.0 header rules (docs/api.md): lengths, offsets, content type and the Location of an upload. */
import { BadRequestError, UnsupportedMediaTypeError } from "../errors.ts";

/** The only Content-Type a PATCH may carry. */
export const TUS_CONTENT_TYPE = "application/offset+octet-stream";

function parseDecimal(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined) return null;
  const text = raw.trim();
  // Plain non-negative decimals only: no sign, exponent, hex or fraction; within exact integer range.
  if (!/^\d{1,16}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/** Parses `Upload-Length`: a non-negative decimal, else 400. */
export function parseUploadLength(raw: string | null | undefined): number {
  const n = parseDecimal(raw);
  if (n === null) {
    throw new BadRequestError(`invalid upload length: "${raw ?? ""}"`, { code: "invalid_upload_length" });
  }
  return n;
}

/** Parses `Upload-Offset`: a non-negative decimal, else 400. */
export function parseUploadOffset(raw: string | null | undefined): number {
  const n = parseDecimal(raw);
  if (n === null) throw new BadRequestError("invalid upload offset", { code: "invalid_upload_offset" });
  return n;
}

/** Throws 415 unless the PATCH body is declared as `application/offset+octet-stream`. */
export function assertChunkContentType(raw: string | null | undefined): void {
  if (raw?.trim().toLowerCase() !== TUS_CONTENT_TYPE) {
    throw new UnsupportedMediaTypeError("invalid_content_type");
  }
}

/** The Location of an upload: `<base>/api/tus<escaped vpath>`, path only, no query. */
export function tusLocation(baseUrl: string, vpath: string): string {
  const escaped = vpath.split("/").map((seg) => encodeURIComponent(seg)).join("/");
  return `${baseUrl}/api/tus${escaped.startsWith("/") ? escaped : "/" + escaped}`;
}
