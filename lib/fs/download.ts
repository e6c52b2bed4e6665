/**
 * GET /api/raw for one file (docs/api.md): Content-Disposition, conditional requests, a single byte range.
 * Returns a plain description (status, headers, body) that the route turns into a Response.
 *
 * Security over compatibility: files that a browser could run as a document (HTML, SVG, XML, XHTML…) are
 * never rendered from our origin: `inline=true` still answers `attachment` for them, and every inline answer
 * carries a sandboxing Content-Security-Policy (PDF keeps upstream's `script-src 'none'`, since browsers'
 * PDF viewers refuse sandboxed documents).
 */
import { ForbiddenError, HttpError, NotFoundError } from "../errors.ts";
import type { ScopedPath } from "./gate.ts";
import { HEADER_BYTES, readHeadOf } from "./file_info.ts";
import { closeFd, openFile, openFileSync, openForRead, type Pin, pinTarget } from "./floor.ts";
import { fileType, readWholeFile, S_IFDIR, S_IFIFO, S_IFREG } from "./dir_stat.ts";
import { mimeByExtension, sniffMime } from "./mime.ts";
import { extensionOf, vpathBase } from "./path.ts";

/** Extensions whose content can execute script when rendered as a document. */
const ACTIVE_EXTENSIONS = new Set([
  ".html",
  ".htm",
  ".shtml",
  ".xhtml",
  ".xht",
  ".svg",
  ".svgz",
  ".xml",
  ".xsl",
  ".xslt",
  ".mht",
  ".mhtml",
  ".hta",
]);

/** CSP of inline file answers: no scripts, plugins, forms or same-origin access. */
export const INLINE_CSP =
  "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

/** CSP of inline PDFs (as upstream): a sandboxed PDF would not display. */
const PDF_CSP = "script-src 'none';";

const SEGMENT_SAFE = /[A-Za-z0-9\-_.~$&+:=@]/;

/** Percent-encodes a file name like a URL path segment. */
export function encodeFilename(name: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(name)) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && SEGMENT_SAFE.test(ch) ? ch : "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

/** `inline; filename*=utf-8''<enc>` or `attachment; …`. */
export function contentDisposition(name: string, options: { inline: boolean }): string {
  return `${options.inline ? "inline" : "attachment"}; filename*=utf-8''${encodeFilename(name)}`;
}

/** True when a browser could run script from a file with this name if rendered as a document. */
function isActiveContent(name: string): boolean {
  return ACTIVE_EXTENSIONS.has(extensionOf(name).toLowerCase());
}

/** Conditional and range headers of the request. */
export interface DownloadRequest {
  inline: boolean;
  range?: string | null;
  ifNoneMatch?: string | null;
  ifModifiedSince?: string | null;
  ifUnmodifiedSince?: string | null;
  ifRange?: string | null;
  /** Overrides the name used for Content-Disposition and the type (previews, subtitles). */
  name?: string;
  /** Overrides the Content-Type of inline answers. */
  contentType?: string;
}

/** A planned file answer. */
export interface FileDownload {
  status: 200 | 206 | 304;
  headers: Record<string, string>;
  /**
   * null for 304, HEAD-like answers and named pipes; the bytes themselves for a small file
   * ({@link SMALL_BODY}), a stream otherwise.
   */
  body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer> | null;
}

/** Cancels a planned body that will not be sent (HEAD); closes the file behind a stream. */
export async function discardBody(d: FileDownload): Promise<void> {
  if (d.body instanceof ReadableStream) await d.body.cancel();
}

/** A strong validator from mtime and size. */
export function fileEtag(info: Deno.FileInfo): string {
  return `"${(info.mtime?.getTime() ?? 0).toString(16)}-${info.size.toString(16)}"`;
}

function httpDate(date: Date | null): string {
  return (date ?? new Date(0)).toUTCString();
}

function parseRange(header: string, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const m = header.trim().match(/^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/);
  if (!m || (m[1] === "" && m[2] === "")) return null; // multi-range or malformed: answer the whole file
  let start: number, end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== "" && Number(m[2]) < start) return null;
  }
  if (start >= size || size === 0) return "unsatisfiable";
  return { start, end };
}

function etagMatches(header: string, etag: string): boolean {
  return header.split(",").map((s) => s.trim().replace(/^W\//, "")).some((t) => t === "*" || t === etag);
}

function notModifiedSince(header: string, mtime: Date | null): boolean {
  const since = Date.parse(header);
  if (Number.isNaN(since) || mtime === null) return false;
  return Math.floor(mtime.getTime() / 1000) * 1000 <= since;
}

/**
 * Bytes read per pull of a bounded file body. Measured against the app (server CPU per GiB of a
 * `bytes=1-<size-2>` range, several runs on the loaded 2-core bench machine): 256 KiB and 1 MiB reads both cost
 * 550–800 ms/GiB, the native whole-file stream 430–520; the smaller chunk keeps less memory per download.
 */
export const FILE_CHUNK = 256 * 1024;

/**
 * Streams `length` bytes of a file from `start`, in large chunks; cancelling closes the file. `at` pins the file
 * when the stream starts (the disk floor: a checked path, or a server path such as a cached preview).
 */
export function fileStream(at: () => Pin, start: number, length: number): ReadableStream<Uint8Array> {
  return boundedStream(async () => await openAt(at, start), length);
}

/** Opens a pinned file for reading at `start`; closes it again when the seek fails. */
async function openAt(at: () => Pin, start: number): Promise<Deno.FsFile> {
  let handle: Deno.FsFile;
  {
    using pin = at();
    handle = await openFile(pin);
  }
  try {
    if (start > 0) await handle.seek(start, Deno.SeekMode.Start);
  } catch (err) {
    handle.close();
    throw err;
  }
  return handle;
}

/**
 * Streams exactly `length` bytes (fewer only if the file got shorter) from an open file's current position: the
 * reads go straight into the buffers the consumer hands over (a byte stream), {@link FILE_CHUNK} at a time, and
 * stop at the end of the range, so the body never runs past the Content-Length that was announced (a file that grew
 * since it was planned is cut there). Closes the file at the end, on error and on cancel.
 */
function boundedStream(open: () => Promise<Deno.FsFile>, length: number): ReadableStream<Uint8Array> {
  let file: Deno.FsFile | null = null;
  let left = length;
  const close = () => {
    file?.close();
    file = null;
  };
  const source: UnderlyingByteSource = {
    type: "bytes",
    autoAllocateChunkSize: FILE_CHUNK,
    async start() {
      file = await open();
    },
    async pull(controller: ReadableByteStreamController) {
      const req = controller.byobRequest!;
      const view = req.view as Uint8Array;
      const want = Math.min(view.byteLength, left);
      const n = want > 0 && file
        ? await file.read(view.subarray(0, want)).catch((err) => {
          close();
          throw err;
        })
        : null;
      if (!n) {
        // End of the range, or the file got shorter since it was planned.
        close();
        controller.close();
        req.respond(0);
        return;
      }
      left -= n;
      req.respond(n);
      if (left <= 0) {
        close();
        controller.close();
      }
    },
    cancel() {
      close();
    },
  };
  return new ReadableStream(source) as ReadableStream<Uint8Array>;
}

/**
 * The body of `length` bytes from `start`, the file opened (and positioned) before the answer is sent so that a
 * failure is still an error status. A body that runs to the end of the file (whole files, resumed downloads, media
 * seeking: `bytes=N-`) is the file's own stream, which Deno.serve pulls natively without a JavaScript step per
 * chunk (the cheapest path measured); a range that stops earlier is a bounded byte stream.
 *
 * Why not the native stream for bounded ranges too, cut by Content-Length: over HTTP/1.1 the server stops at the
 * announced length, but over cleartext HTTP/2 (prior knowledge, which Deno.serve accepts) the same answer is a
 * stream error, and a future HTTP stack that sent the excess on a keep-alive connection would desynchronise it.
 */
async function bodyOf(file: ScopedPath, start: number, length: number, size: number) {
  const handle = await openAt(() => pinTarget(file), start);
  if (start + length >= size) return handle.readable;
  return boundedStream(() => Promise.resolve(handle), length);
}

/**
 * Largest file answered from one read into memory instead of a stream. Measured with a bare Deno.serve on the
 * 2-core bench machine (wrk, 64 connections, 4 KiB file, server CPU per request): async open and the file's
 * native stream about 0.26 ms, async open and read into a buffer 0.18, synchronous open, fstat, read and close
 * 0.07. A read of at most 64 KiB that the
 * gate's lstat has just warmed blocks the event loop for microseconds; larger files keep the stream.
 */
export const SMALL_BODY = 64 * 1024;

/** A file opened for planning: the fstat of the handle, and its bytes when it is small enough to read whole. */
interface Opened {
  info: Deno.FileInfo;
  bytes: Uint8Array<ArrayBuffer> | null;
}

/**
 * Opens a file that the gate saw as small, fstats it and reads it whole if it still is a regular file of at most
 * {@link SMALL_BODY} bytes. Headers are then planned from this fstat, so they describe exactly the bytes sent; a
 * file that grew meanwhile comes back without bytes (streamed, with its new size), a FIFO swapped in as a FIFO
 * (answered without a body). With libc ({@link readWholeFile}) the open neither blocks on a FIFO nor follows a
 * symlink swapped in since the gate looked (refused, 403); elsewhere Deno's synchronous calls.
 */
function openSmall(file: ScopedPath & { stat: Deno.FileInfo }): Opened | null {
  // One open through the disk floor, beneath the files root with no symlink followed (the last name included: a
  // link swapped in since the gate looked is 403, a vanished file 404), O_NONBLOCK (a FIFO does not block).
  let fd: number | null;
  try {
    fd = openForRead(file.confinement.anchor, file.real);
  } catch (err) {
    if (err instanceof Deno.errors.PermissionDenied) return null;
    throw err;
  }
  let whole;
  try {
    whole = readWholeFile(fd === null ? file.real : { fd }, SMALL_BODY);
  } finally {
    if (fd !== null) closeFd(fd);
  }
  // Through the floor: an fstat that failed or a file shortened during the read; the caller streams it.
  if (whole === null && fd !== null) return null;
  if (whole === null) {
    // Not openable without following a link (without the floor): gone (the lstat throws: 404), or a symlink
    // swapped in since the gate looked, which is refused rather than followed unchecked.
    // floor-exempt: only where the floor cannot pin (no FFI): a check, nothing read.
    if (Deno.lstatSync(file.real).isSymlink) {
      throw new ForbiddenError("symlink_escape", "Path changed into a link");
    }
    return null;
  }
  if (whole !== undefined) {
    const type = fileType(whole.mode);
    const info: Deno.FileInfo = {
      ...file.stat,
      isFile: type === S_IFREG,
      isDirectory: type === S_IFDIR,
      isSymlink: false,
      isFifo: type === S_IFIFO,
      size: whole.size,
      mtime: new Date(whole.mtimeMs),
      mode: whole.mode,
    };
    return { info, bytes: whole.bytes };
  }
  using pin = pinTarget(file);
  using handle = openFileSync(pin);
  const info = handle.statSync();
  if (!info.isFile) return null;
  if (info.size > SMALL_BODY) return { info, bytes: null };
  const bytes = new Uint8Array(info.size);
  let n = 0;
  while (n < bytes.length) {
    const got = handle.readSync(bytes.subarray(n));
    if (!got) break;
    n += got;
  }
  // Truncated in place between the fstat and the read: stream what is there, planned from a fresh stat.
  return n === bytes.length ? { info, bytes } : { info: handle.statSync(), bytes: null };
}

/** Plans the answer for one file: 200/206 with the bytes or a stream, 304, or throws 404/412/416. */
export async function planDownload(file: ScopedPath, request: DownloadRequest): Promise<FileDownload> {
  if (file.stat === null || file.lstat === null) throw new NotFoundError();
  const small = file.stat.isFile && file.stat.size <= SMALL_BODY
    ? openSmall(file as ScopedPath & { stat: Deno.FileInfo })
    : null;
  const info = small?.info ?? file.stat;
  const name = request.name ?? vpathBase(file.vpath);
  const active = isActiveContent(name);
  const inline = request.inline && !active;
  const headers: Record<string, string> = {
    "Content-Disposition": contentDisposition(name, { inline }),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private",
  };
  if (info.isFifo) return { status: 200, headers, body: null };
  if (!request.inline) {
    headers["Content-Type"] = "application/octet-stream";
  } else {
    headers["Content-Type"] = request.contentType ??
      (mimeByExtension(name) ||
        sniffMime(small?.bytes?.subarray(0, HEADER_BYTES) ?? readHeadOf(file)));
    const isPdf = headers["Content-Type"].startsWith("application/pdf");
    headers["Content-Security-Policy"] = isPdf && !active ? PDF_CSP : INLINE_CSP;
  }
  const etag = fileEtag(info);
  headers["ETag"] = etag;
  headers["Last-Modified"] = httpDate(info.mtime);
  headers["Accept-Ranges"] = "bytes";
  if (request.ifUnmodifiedSince && !notModifiedSince(request.ifUnmodifiedSince, info.mtime)) {
    throw new HttpError(412, "precondition_failed");
  }
  const notModified = request.ifNoneMatch
    ? etagMatches(request.ifNoneMatch, etag)
    : request.ifModifiedSince
    ? notModifiedSince(request.ifModifiedSince, info.mtime)
    : false;
  if (notModified) return { status: 304, headers, body: null };
  let range = request.range ? parseRange(request.range, info.size) : null;
  if (range !== null && request.ifRange) {
    const ok = request.ifRange.startsWith('"') || request.ifRange.startsWith("W/")
      ? request.ifRange === etag
      : notModifiedSince(request.ifRange, info.mtime);
    if (!ok) range = null;
  }
  if (range === "unsatisfiable") {
    throw new HttpError(416, "range_not_satisfiable", undefined, {
      headers: { "Content-Range": `bytes */${info.size}` },
    });
  }
  if (range === null) {
    headers["Content-Length"] = String(info.size);
    return { status: 200, headers, body: small?.bytes ?? await bodyOf(file, 0, info.size, info.size) };
  }
  const length = range.end - range.start + 1;
  headers["Content-Range"] = `bytes ${range.start}-${range.end}/${info.size}`;
  headers["Content-Length"] = String(length);
  const body = small?.bytes?.subarray(range.start, range.end + 1);
  return { status: 206, headers, body: body ?? await bodyOf(file, range.start, length, info.size) };
}
