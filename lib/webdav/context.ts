/** What every WebDAV method handler gets, and the URL ↔ vpath mapping of the endpoint (docs/api.md#webdav). */
import { BadRequestError, HttpError } from "../errors.ts";
import type { ListingCache } from "../fs/listing_cache.ts";
import type { PropfindCache } from "./propfind_cache.ts";
import { resolveScoped, type ScopedPath } from "../fs/gate.ts";
import { fileEtag } from "../fs/download.ts";
import type { FsRequest } from "../fs/request.ts";
import {
  assertUnlocked,
  type Change,
  evaluateIf,
  parseIf,
  preconditionFailed,
  submittedTokens,
} from "./conditions.ts";
import { realSegments } from "./locks.ts";
import { decodePath, pathBelow } from "../request_path.ts";

/** One WebDAV request. */
export interface DavContext {
  fs: FsRequest;
  kv: Deno.Kv;
  request: Request;
  /** URL path of the endpoint root without the trailing slash (`<base>/dav`). */
  prefix: string;
  /** The decoded request path relative to the endpoint (`/a/b`, may end with `/`). */
  vpath: string;
  listings?: ListingCache;
  /**
   * Whether listing snapshots sniff the types of files without a known extension: the Files API's setting
   * (config.typeDetectionByHeader), so that both read and keep one snapshot of a folder instead of replacing
   * each other's (PROPFIND itself needs no types).
   */
  readHeaders?: boolean;
  /** The app's kept PROPFIND answers (AppDeps.propfindCache); absent = nothing kept. */
  propfindCache?: PropfindCache;
  now: () => number;
  /** Address of the TCP peer (undefined in-process); large answers are not compressed for loopback peers. */
  peer?: string;
}

/** Decodes the path of a request URL below `prefix`; null when the URL is not below it, 400 when malformed. */
export function vpathOfUrlPath(pathname: string, prefix: string): string | null {
  const rest = pathBelow(pathname, prefix);
  if (rest === null) return null;
  const vpath = decodePath(rest);
  if (vpath === null) {
    throw new BadRequestError("malformed percent-encoding in the path", { code: "bad_path" });
  }
  return vpath;
}

/** Percent-encodes one path segment for an href. */
export function encodeSegment(segment: string): string {
  const s = encodeURIComponent(segment);
  return /[!'()*]/.test(s)
    ? s.replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
    : s;
}

/** Percent-encodes a vpath for an href (each segment; `/` kept). */
export function encodeVpath(vpath: string): string {
  return vpath.split("/").map(encodeSegment).join("/");
}

/** The href of a vpath (collections end with `/`). */
export function hrefOf(ctx: Pick<DavContext, "prefix">, vpath: string, isDir: boolean): string {
  const path = encodeVpath(vpath === "/" ? "/" : vpath + (isDir ? "/" : ""));
  return ctx.prefix + path;
}

/**
 * The vpath named by an absolute or path-only URL in a header (Destination, If tags). A different host or a
 * path outside the endpoint is 502 (RFC 4918: the server cannot act on another server's namespace).
 */
export function vpathOfHeaderUrl(ctx: DavContext, value: string): string {
  let url: URL;
  try {
    url = new URL(value, ctx.request.url);
  } catch {
    throw new BadRequestError("malformed URL", { code: "bad_url" });
  }
  const own = new URL(ctx.request.url);
  if (url.host !== own.host) throw new HttpError(502, "other_server");
  const vpath = vpathOfUrlPath(url.pathname, ctx.prefix);
  if (vpath === null) throw new HttpError(502, "outside_endpoint");
  return vpath;
}

/** The entity tag we give a resource (the download ETag). */
export function etagOf(p: ScopedPath): string | null {
  return p.stat ? fileEtag(p.stat) : null;
}

/** Segments of the real path of a checked path (lock and property keys). */
export function segsOf(p: ScopedPath): string[] {
  return realSegments(p.real);
}

/**
 * Runs the If header (412 when false) and the lock check (423) for the resources a method is about to change.
 * `target` is the request's own resource (untagged lists are evaluated on it).
 */
export async function checkConditions(
  ctx: DavContext,
  target: ScopedPath,
  changes: readonly Change[],
): Promise<void> {
  const header = ctx.request.headers.get("If");
  const now = ctx.now();
  let submitted = new Set<string>();
  if (header) {
    const lists = parseIf(header);
    submitted = submittedTokens(lists);
    const ok = await evaluateIf(ctx.kv, lists, async (resource) => {
      if (resource === null) return { segs: segsOf(target), etag: etagOf(target) };
      try {
        const p = await resolveScoped(ctx.fs.gate, vpathOfHeaderUrl(ctx, resource), "read");
        return { segs: segsOf(p), etag: etagOf(p) };
      } catch {
        // A tag naming a resource we cannot see matches nothing.
        return { segs: null, etag: null };
      }
    }, now);
    if (!ok) throw preconditionFailed();
  }
  await assertUnlocked(ctx.kv, changes, { submitted, userId: ctx.fs.user.id, now });
}

/** The parent's real segments (a membership change of the parent). */
export function parentSegs(p: ScopedPath): string[] {
  return segsOf(p).slice(0, -1);
}
