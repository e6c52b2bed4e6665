/** Reads a JSON request body with a size cap; turns bad input into 400/413 errors with a message. */
import { BadRequestError, PayloadTooLargeError } from "./errors.ts";

/** 1 MiB, the cap of login/signup and other JSON bodies. */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** Reads the body as text, refusing more than `limit` bytes without buffering beyond it. */
export async function readTextBody(req: Request, options: { limit?: number } = {}): Promise<string> {
  const limit = options.limit ?? JSON_BODY_LIMIT;
  const declared = Number(req.headers.get("Content-Length") ?? "NaN");
  if (declared > limit) throw new PayloadTooLargeError("body_too_large");
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError("body_too_large");
    }
    chunks.push(value);
  }
  const all = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

/**
 * Parses a JSON object body; invalid JSON or a non-object → BadRequestError, and so is an empty body unless
 * `allowEmpty` (then it reads as `{}`, for bodies whose keys the callee checks and names when missing).
 */
export async function readJsonObject(
  req: Request,
  options: { limit?: number; allowEmpty?: boolean } = {},
): Promise<Record<string, unknown>> {
  const text = await readTextBody(req, options);
  if (text.trim() === "") {
    if (options.allowEmpty) return {};
    throw new BadRequestError("EOF", { code: "empty_body" });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new BadRequestError(`invalid JSON: ${(err as Error).message}`, { code: "bad_json" });
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new BadRequestError("expected a JSON object", { code: "bad_json" });
  }
  return value as Record<string, unknown>;
}

/** Reads a string field; a present value of another type is a 400. */
export function stringField(obj: Record<string, unknown>, key: string): string {
  const v = obj[key];
  if (v === undefined || v === null) return "";
  if (typeof v !== "string") throw new BadRequestError(`"${key}" must be a string`, { code: "bad_type" });
  return v;
}
