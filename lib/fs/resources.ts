/** GET /api/resources (docs/api.md): one file or a directory listing, with content, checksum or raw text. */
import { pinTarget, readFile } from "./floor.ts";
import { BadRequestError, NotFoundError } from "../errors.ts";
import type { Resource, Sorting } from "../types.ts";
import { checksumFile, parseChecksumAlgorithm } from "./checksum.ts";
import { readHeadOf, resourceFields } from "./file_info.ts";
import { assertPermission, type GateContext, resolveScoped, scopedParent, type ScopedPath } from "./gate.ts";
import type { ListingCache } from "./listing_cache.ts";
import { renderListing } from "./listing_json.ts";
import { scanDirectory } from "./listing_snapshot.ts";
import { vpathBase } from "./path.ts";
import { findSubtitles } from "./subtitles.ts";

/** Options of {@link getResource}. */
export interface GetResourceOptions {
  /** The user's listing order. */
  sorting: Sorting;
  /** config.typeDetectionByHeader: sniff listing items whose extension is unknown. */
  readHeaders: boolean;
  /** `?checksum=` value ("" or undefined = none). */
  checksum?: string;
  /** `X-Encoding: true`: answer raw bytes for plain `text` files. */
  rawText?: boolean;
  signal?: AbortSignal;
  /** Directory snapshots shared between requests (AppDeps.listings); none = read the directory each time. */
  listings?: ListingCache;
  /** Adjusts the top-level fields of the answer before it is encoded (public shares: root name, token). */
  decorate?: (resource: Resource) => void;
}

/** Either the JSON resource or, for `X-Encoding: true` on a text file, the raw bytes. */
export type GetResourceResult = { resource: Resource; raw?: undefined } | {
  raw: Uint8Array<ArrayBuffer>;
  resource?: undefined;
};

/** Builds the top-level Resource of an existing path (link's own time/mode, target's size/isDir). */
export function describe(p: ScopedPath, options: { canModify: boolean; head?: Uint8Array }): Resource {
  if (p.lstat === null) throw new NotFoundError();
  return resourceFields({
    path: p.trailingSlash ? p.vpath + "/" : p.vpath,
    name: vpathBase(p.vpath),
    lstat: p.lstat,
    stat: p.stat,
    linkOwnTimes: true,
    canModify: options.canModify,
    head: options.head,
  });
}

async function readText(p: ScopedPath): Promise<string> {
  return new TextDecoder().decode(await readPinned(p));
}

/** {@link getResourceJson} as an object (for callers that inspect the answer rather than send it). */
export async function getResource(
  ctx: GateContext,
  vpath: string,
  options: GetResourceOptions,
): Promise<GetResourceResult> {
  const result = await getResourceJson(ctx, vpath, options);
  if (result.raw) return { raw: result.raw };
  return { resource: await parseJsonChunks<Resource>(result.json!) };
}

/** Reads back the chunked JSON of getResourceJson (or of the public share pipeline) as a value. */
export async function parseJsonChunks<T>(chunks: Uint8Array<ArrayBuffer>[]): Promise<T> {
  return JSON.parse(await new Blob(chunks).text());
}

/**
 * Looks up a path for GET /api/resources and answers the UTF-8 JSON, in chunks (see chunkedBody): the one
 * listing pipeline for folders (a snapshot, cached when `options.listings` is given, rendered straight to
 * bytes). Throws 403/404 through the gate, 202 when download is needed.
 */
export async function getResourceJson(
  ctx: GateContext,
  vpath: string,
  options: GetResourceOptions,
): Promise<
  { json: Uint8Array<ArrayBuffer>[]; raw?: undefined } | { raw: Uint8Array<ArrayBuffer>; json?: undefined }
> {
  const { p, self } = await lookUp(ctx, vpath);
  if (self.isDir) {
    options.decorate?.(self);
    const snapshotOptions = { readHeaders: options.readHeaders, signal: options.signal };
    const snap = options.listings
      ? await options.listings.snapshot(p, snapshotOptions)
      : await scanDirectory({ real: p.real, anchor: p.confinement.anchor }, snapshotOptions);
    return { json: await renderListing(p, self, snap, options) };
  }
  const result = await fileResource(ctx, p, self, options);
  if (result.raw) return { raw: result.raw };
  options.decorate?.(result.resource);
  return { json: [new TextEncoder().encode(JSON.stringify(result.resource))] };
}

async function lookUp(ctx: GateContext, vpath: string): Promise<{ p: ScopedPath; self: Resource }> {
  const p = await resolveScoped(ctx, vpath, "read");
  // A missing entry, or a link whose target is missing, is 404 for a direct request.
  if (p.lstat === null || p.stat === null) throw new NotFoundError();
  const head = p.stat.isFile ? readHeadOf(p) : undefined;
  return { p, self: describe(p, { canModify: ctx.user.perm.modify, head }) };
}

async function fileResource(
  ctx: GateContext,
  p: ScopedPath,
  self: Resource,
  options: GetResourceOptions,
): Promise<GetResourceResult> {
  const stat = p.stat!;
  if (options.rawText) {
    assertPermission(ctx.user, "download");
    if (self.type === "text") return { raw: await readPinned(p) };
  }
  if (self.type === "video") {
    const subtitles = await findSubtitles(p, await scopedParent(p));
    if (subtitles.length) self.subtitles = subtitles;
  }
  if (options.checksum) {
    assertPermission(ctx.user, "download");
    const algorithm = parseChecksumAlgorithm(options.checksum);
    // Reading a FIFO or device would block or never end.
    if (!stat.isFile) throw new BadRequestError("not a regular file", { code: "not_a_regular_file" });
    self.checksums = { [algorithm]: await checksumFile(p, algorithm) };
    return { resource: self };
  }
  if ((self.type === "text" || self.type === "textImmutable") && ctx.user.perm.download) {
    self.content = await readText(p);
  }
  return { resource: self };
}

/** Reads what a checked path leads to through the disk floor. */
async function readPinned(p: ScopedPath): Promise<Uint8Array<ArrayBuffer>> {
  using pin = pinTarget(p);
  return await readFile(pin);
}
