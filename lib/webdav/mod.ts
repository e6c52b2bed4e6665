/**
 * The WebDAV endpoint (class 1 and 2) on each user's scope: one dispatcher over the method modules. Paths go
 * through the same gate, permissions, rules, hooks and atomic writes as the Files API (docs/api.md#webdav).
 */
import { MethodNotAllowedError } from "../errors.ts";
import type { RequestContext } from "../request_context.ts";
import { type DavContext, vpathOfUrlPath } from "./context.ts";
import { copyOrMove } from "./copymove.ts";
import { deleteEntry, getFile, mkcol, putFile } from "./files.ts";
import { lock, unlock } from "./lock_methods.ts";
import { propfind } from "./propfind.ts";
import { proppatch } from "./proppatch.ts";

export { authenticateDav, type DavAuthInput, realmOf } from "./auth.ts";

/** Every method the endpoint answers. */
export const DAV_METHODS = [
  "OPTIONS",
  "GET",
  "HEAD",
  "PUT",
  "DELETE",
  "MKCOL",
  "COPY",
  "MOVE",
  "PROPFIND",
  "PROPPATCH",
  "LOCK",
  "UNLOCK",
] as const;

const ALLOW = DAV_METHODS.join(", ");

/** URL path of the endpoint under the base URL. */
export function davPrefix(baseUrl: string): string {
  return `${baseUrl}/dav`;
}

/** Builds the WebDAV view of an authenticated request. */
export function davContextOf(ctx: RequestContext, request: Request): DavContext {
  const prefix = davPrefix(ctx.deps.config.baseUrl);
  return {
    fs: ctx,
    kv: ctx.kv,
    request,
    prefix,
    vpath: vpathOfUrlPath(new URL(request.url).pathname, prefix) ?? "/",
    listings: ctx.deps.listings,
    readHeaders: ctx.deps.config.typeDetectionByHeader,
    propfindCache: ctx.deps.propfindCache,
    now: ctx.now,
  };
}

/** The OPTIONS answer: compliance classes and methods. */
export function davOptions(): Response {
  return new Response(null, {
    status: 200,
    headers: { DAV: "1, 2", "MS-Author-Via": "DAV", Allow: ALLOW, "Content-Length": "0" },
  });
}

/** Answers one WebDAV request. */
export async function handleDav(ctx: DavContext): Promise<Response> {
  switch (ctx.request.method) {
    case "OPTIONS":
      return davOptions();
    case "GET":
    case "HEAD":
      return await getFile(ctx);
    case "PUT":
      return await putFile(ctx);
    case "DELETE":
      return await deleteEntry(ctx);
    case "MKCOL":
      return await mkcol(ctx);
    case "COPY":
      return await copyOrMove(ctx, { isMove: false });
    case "MOVE":
      return await copyOrMove(ctx, { isMove: true });
    case "PROPFIND":
      return await propfind(ctx);
    case "PROPPATCH":
      return await proppatch(ctx);
    case "LOCK":
      return await lock(ctx);
    case "UNLOCK":
      return await unlock(ctx);
    default:
      throw new MethodNotAllowedError("dav_method", undefined, { headers: { Allow: ALLOW } });
  }
}
