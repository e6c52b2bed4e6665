/**
 * The one error family of the server. `lib/` throws these; `app.ts` turns them into responses.
 * The wire body stays filebrowser's plain text (docs/api.md#errors); `code` is for logs and tests.
 */

/** Options accepted by every HttpError constructor. */
export interface HttpErrorOptions {
  cause?: unknown;
  /** Extra response headers (e.g. Retry-After). */
  headers?: Record<string, string>;
  /** Put the message in the body (default: for 4xx with a message; a 500 only when set). */
  expose?: boolean;
}

/** Base class: an error that maps to an HTTP status. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  /** When true, a 400 or 500 body carries the message (`400 Bad Request (<message>)`). */
  readonly expose: boolean;

  constructor(status: number, code: string, message?: string, options: HttpErrorOptions = {}) {
    super(message ?? code, { cause: options.cause });
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
    this.expose = message !== undefined && message !== "" && (options.expose ?? status < 500);
  }
}

/** 400: the request is malformed; the message reaches the client. */
export class BadRequestError extends HttpError {
  constructor(message?: string, options?: HttpErrorOptions & { code?: string }) {
    super(400, options?.code ?? "bad_request", message, options);
  }
}

/** 401: no valid credentials. */
export class UnauthorizedError extends HttpError {
  constructor(code = "unauthorized", message?: string, options?: HttpErrorOptions) {
    super(401, code, message, options);
  }
}

/** 403: authenticated but not allowed (permission, rule, scope, symlink escape). */
export class ForbiddenError extends HttpError {
  constructor(code = "forbidden", message?: string, options?: HttpErrorOptions) {
    super(403, code, message, options);
  }
}

/** 404: the thing does not exist (or is not visible to this user). */
export class NotFoundError extends HttpError {
  constructor(code = "not_found", message?: string, options?: HttpErrorOptions) {
    super(404, code, message, options);
  }
}

/** 405: the method is not allowed here. */
export class MethodNotAllowedError extends HttpError {
  constructor(code = "method_not_allowed", message?: string, options?: HttpErrorOptions) {
    super(405, code, message, options);
  }
}

/** 409: conflict with the current state (exists, stale offset, lost race). */
export class ConflictError extends HttpError {
  constructor(code = "conflict", message?: string, options?: HttpErrorOptions) {
    super(409, code, message, options);
  }
}

/** 413: the payload or image is too large. */
export class PayloadTooLargeError extends HttpError {
  constructor(code = "payload_too_large", message?: string, options?: HttpErrorOptions) {
    super(413, code, message, options);
  }
}

/** 414: the path (or another part of the URL) is longer than the server can use. */
export class UriTooLongError extends HttpError {
  constructor(code = "uri_too_long", message?: string, options?: HttpErrorOptions) {
    super(414, code, message, options);
  }
}

/** 415: wrong content type. */
export class UnsupportedMediaTypeError extends HttpError {
  constructor(code = "unsupported_media_type", message?: string, options?: HttpErrorOptions) {
    super(415, code, message, options);
  }
}

/** 423: the resource is locked (e.g. an upload in progress elsewhere). */
export class LockedError extends HttpError {
  constructor(code = "locked", message?: string, options?: HttpErrorOptions) {
    super(423, code, message, options);
  }
}

/** 429: too many requests; carries Retry-After. */
export class TooManyRequestsError extends HttpError {
  constructor(retryAfterSeconds: number, code = "too_many_requests") {
    super(429, code, undefined, {
      headers: { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    });
  }
}

/** 507: the write would take the user past their storage quota. */
export class InsufficientStorageError extends HttpError {
  constructor(code = "quota_exceeded", message?: string, options?: HttpErrorOptions) {
    // The message (how much is left) is for the user: a 507 body carries it, unlike other 5xx.
    super(507, code, message, { expose: true, ...options });
  }
}

/** 501: the operation is not implemented for this input. */
export class NotImplementedError extends HttpError {
  constructor(code = "not_implemented", message?: string, options?: HttpErrorOptions) {
    super(501, code, message, options);
  }
}

/** 503: a feature is unavailable on this server (e.g. a compressor tool is missing). */
export class UnavailableError extends HttpError {
  constructor(code = "unavailable", message?: string, options?: HttpErrorOptions) {
    super(503, code, message, options);
  }
}

/** The only place that turns foreign errors into ours. */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof Deno.errors.NotFound) return new NotFoundError("not_found", undefined, { cause: err });
  if (err instanceof Deno.errors.PermissionDenied) {
    return new ForbiddenError("permission_denied", undefined, { cause: err });
  }
  if (err instanceof Deno.errors.AlreadyExists) {
    return new ConflictError("already_exists", undefined, { cause: err });
  }
  if (err instanceof KvCommitError) return new ConflictError("kv_conflict", undefined, { cause: err });
  // A file stands where the path needs a folder (writing `a.txt/b` when `a.txt` is a file).
  if (err instanceof Deno.errors.NotADirectory) {
    return new ConflictError("not_a_directory", undefined, { cause: err });
  }
  // A folder where a file was (swapped since the path was checked, or named by the client).
  if (err instanceof Deno.errors.IsADirectory) {
    return new ConflictError("is_a_directory", undefined, { cause: err });
  }
  if (err instanceof Deno.errors.FilesystemLoop) {
    return new ForbiddenError("symlink_loop", "Too many levels of symbolic links", { cause: err });
  }
  const input = inputErrorOf(err);
  if (input) return input;
  if (err instanceof SyntaxError) return new BadRequestError(err.message, { cause: err, code: "bad_json" });
  return new HttpError(500, "internal", undefined, { cause: err });
}

/**
 * Errors that only client input can cause, raised by the system or by KV rather than by our checks (which
 * normally come first): a too-long file name or path, a NUL byte in a path, an over-sized KV key or value.
 */
function inputErrorOf(err: unknown): HttpError | null {
  if (!(err instanceof Error)) return null;
  const options = { cause: err };
  // A folder that gained an entry while it was being deleted (another request wrote into it).
  if ((err as { code?: unknown }).code === "ENOTEMPTY") {
    return new ConflictError("not_empty", undefined, options);
  }
  if ((err as { code?: unknown }).code === "ENAMETOOLONG") {
    return new BadRequestError("file name or path too long", { ...options, code: "name_too_long" });
  }
  // The client went away before its request body was complete (a cancelled upload): nobody reads the answer.
  if (err instanceof Deno.errors.BadResource && /read request body/.test(err.message)) {
    return new BadRequestError("the request body ended early", { ...options, code: "body_interrupted" });
  }
  if (!(err instanceof TypeError)) return null;
  if (/unexpected NUL byte/.test(err.message)) {
    return new BadRequestError("path contains a NUL byte", { ...options, code: "nul_byte" });
  }
  if (/^Key too large for read/.test(err.message)) {
    return new NotFoundError("key_too_large", undefined, options);
  }
  if (/^Key too large for write/.test(err.message)) {
    return new BadRequestError("identifier too long to store", { ...options, code: "key_too_large" });
  }
  if (/^Value too large/.test(err.message)) {
    return new BadRequestError("record too large to store (limit 64 KiB)", {
      ...options,
      code: "value_too_large",
    });
  }
  return null;
}

/** Thrown by storage when an atomic commit lost a race and should not be retried. */
export class KvCommitError extends Error {
  constructor(message = "storage commit failed") {
    super(message);
    this.name = "KvCommitError";
  }
}

const REASONS: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Request Entity Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Requested Range Not Satisfiable",
  423: "Locked",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
  507: "Insufficient Storage",
};

/** The plain-text status body of docs/api.md#errors (`404 Not Found\n`, `400 Bad Request (msg)\n`). */
export function statusText(status: number, message?: string): string {
  const reason = REASONS[status] ?? "Unknown";
  if ((status === 400 || status === 500 || status === 507) && message) {
    return `${status} ${reason} (${message})\n`;
  }
  return `${status} ${reason}\n`;
}
