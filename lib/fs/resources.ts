/** GET /api/resources (docs/api.md): one file or a directory listing, with content, checksum or raw text. */
import { BadRequestError, NotFoundError } from "../errors.ts";
import type { Resource, Sorting } from "../types.ts";
import { checksumFile, parseChecksumAlgorithm } from "./checksum.ts";
import { resourceFields } from "./file_info.ts";
import { assertPermission, type GateContext, resolveScoped, scopedParent, type ScopedPath } from "./gate.ts";
import { listDirectory, readHeadSync } from "./listing.ts";
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
  return new TextDecoder().decode(await Deno.readFile(p.real));
}

/** Looks up a path for GET /api/resources; throws 403/404 through the gate, 202 when download is needed. */
export async function getResource(
  ctx: GateContext,
  vpath: string,
  options: GetResourceOptions,
): Promise<GetResourceResult> {
  const { p, self } = await lookUp(ctx, vpath);
  if (self.isDir) {
    return {
      resource: await listDirectory(p, self, {
        sorting: options.sorting,
        readHeaders: options.readHeaders,
        signal: options.signal,
      }),
    };
  }
  return await fileResource(ctx, p, self, options);
}

/**
 * {@link getResource} as the UTF-8 JSON of the answer, the fast way for directories (a snapshot, cached
 * when `options.listings` is given, rendered straight to bytes), in chunks (see chunkedBody). Same bytes as
 * `JSON.stringify(resource)`.
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
    const snapshotOptions = { readHeaders: options.readHeaders, signal: options.signal };
    const snap = options.listings
      ? await options.listings.snapshot(p, snapshotOptions)
      : await scanDirectory(p.real, snapshotOptions);
    return { json: await renderListing(p, self, snap, options) };
  }
  const result = await fileResource(ctx, p, self, options);
  return result.raw
    ? { raw: result.raw }
    : { json: [new TextEncoder().encode(JSON.stringify(result.resource))] };
}

async function lookUp(ctx: GateContext, vpath: string): Promise<{ p: ScopedPath; self: Resource }> {
  const p = await resolveScoped(ctx, vpath, "read");
  // A missing entry, or a link whose target is missing, is 404 for a direct request.
  if (p.lstat === null || p.stat === null) throw new NotFoundError();
  const head = p.stat.isFile ? readHeadSync(p.real) : undefined;
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
    if (self.type === "text") return { raw: await Deno.readFile(p.real) };
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
