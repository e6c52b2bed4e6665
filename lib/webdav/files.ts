/**
 * GET/HEAD, PUT, MKCOL and DELETE over the same file operations as the Files API: the path gate, atomic
 * writes, the event hooks, share cleanup. Locks and the If header are checked before anything changes.
 */
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  UnsupportedMediaTypeError,
} from "../errors.ts";
import { discardBody, planDownload } from "../fs/download.ts";
import { resolveScoped, scopedParent, type ScopedPath } from "../fs/gate.ts";
import { deleteResource } from "../fs/remove.ts";
import { createDirectory, saveResource, uploadResource } from "../fs/write.ts";
import { checkConditions, type DavContext, parentSegs, segsOf } from "./context.ts";
import { deleteDeadPropsBelow } from "./dead_props.ts";
import { removeLocksBelow } from "./locks.ts";
import { readLimited } from "./xml.ts";

/** Methods a collection answers (Allow of a 405). */
export const COLLECTION_METHODS = "OPTIONS, PROPFIND, PROPPATCH, COPY, MOVE, DELETE, LOCK, UNLOCK";

/** GET and HEAD of a file: range and conditional requests as in downloads; a folder is 405. */
export async function getFile(ctx: DavContext): Promise<Response> {
  // WebDAV has no "202 without download": a missing permission is a plain refusal.
  if (!ctx.fs.user.perm.download) {
    throw new ForbiddenError("permission_denied", 'Missing permission "download"');
  }
  const p = await resolveScoped(ctx.fs.gate, ctx.vpath, "download");
  if (p.lstat === null || p.stat === null) throw new NotFoundError();
  if (p.stat.isDirectory) {
    throw new MethodNotAllowedError("collection", undefined, { headers: { Allow: COLLECTION_METHODS } });
  }
  const h = ctx.request.headers;
  const plan = await planDownload(p, {
    inline: false,
    range: h.get("Range"),
    ifNoneMatch: h.get("If-None-Match"),
    ifModifiedSince: h.get("If-Modified-Since"),
    ifUnmodifiedSince: h.get("If-Unmodified-Since"),
    ifRange: h.get("If-Range"),
  });
  if (ctx.request.method === "HEAD") {
    await discardBody(plan);
    return new Response(null, { status: plan.status, headers: plan.headers });
  }
  return new Response(plan.body, { status: plan.status, headers: plan.headers });
}

async function existingParent(p: ScopedPath): Promise<void> {
  const parent = await scopedParent(p);
  if (!parent.stat?.isDirectory) {
    throw new ConflictError("no_parent", `Cannot create "${p.vpath}": the parent folder does not exist`);
  }
}

/** PUT: replaces a file (needs `modify`, 204) or creates one (needs `create`, 201), atomically and streamed. */
export async function putFile(ctx: DavContext): Promise<Response> {
  if (ctx.request.headers.has("Content-Range")) {
    throw new BadRequestError("partial PUT is not supported", { code: "content_range" });
  }
  const p = await resolveScoped(ctx.fs.gate, ctx.vpath, "read");
  if (p.trailingSlash || p.stat?.isDirectory) {
    throw new MethodNotAllowedError("collection", undefined, { headers: { Allow: COLLECTION_METHODS } });
  }
  const exists = p.lstat !== null;
  if (!exists) await existingParent(p);
  await checkConditions(
    ctx,
    p,
    exists ? [{ segs: segsOf(p) }] : [{ segs: segsOf(p) }, { segs: parentSegs(p) }],
  );
  const body = ctx.request.body;
  const signal = ctx.request.signal;
  const result = exists
    ? await saveResource(ctx.fs, p.vpath, body, { signal })
    : await uploadResource(ctx.fs, p.vpath, body, { override: false, signal });
  return new Response(null, {
    status: exists ? 204 : 201,
    headers: result.etag ? { ETag: result.etag } : {},
  });
}

/** MKCOL: creates one folder (405 when something is there, 409 without a parent, 415 with a body). */
export async function mkcol(ctx: DavContext): Promise<Response> {
  const body = await readLimited(ctx.request, 1 << 16);
  if (body.length) throw new UnsupportedMediaTypeError("mkcol_body");
  const p = await resolveScoped(ctx.fs.gate, ctx.vpath, "create");
  if (p.lstat !== null) {
    throw new MethodNotAllowedError("exists", undefined, { headers: { Allow: COLLECTION_METHODS } });
  }
  await existingParent(p);
  await checkConditions(ctx, p, [{ segs: segsOf(p) }, { segs: parentSegs(p) }]);
  await createDirectory(ctx.fs, p);
  return new Response(null, { status: 201 });
}

/** DELETE: a file, or a folder with everything in it (Depth must be infinity); locks and properties go too. */
export async function deleteEntry(ctx: DavContext): Promise<Response> {
  const depth = ctx.request.headers.get("Depth");
  const p = await resolveScoped(ctx.fs.gate, ctx.vpath, "delete");
  if (p.lstat === null) throw new NotFoundError();
  if (p.lstat.isDirectory && depth !== null && depth.trim().toLowerCase() !== "infinity") {
    throw new BadRequestError("DELETE of a folder needs Depth: infinity", { code: "bad_depth" });
  }
  await checkConditions(ctx, p, [{ segs: segsOf(p), subtree: true }, { segs: parentSegs(p) }]);
  await deleteResource(ctx.fs, p.vpath);
  await cleanUpAfterRemoval(ctx, segsOf(p));
  return new Response(null, { status: 204 });
}

/** Drops the locks and dead properties of a removed subtree. */
export async function cleanUpAfterRemoval(ctx: DavContext, segs: string[]): Promise<void> {
  await removeLocksBelow(ctx.kv, segs, ctx.now());
  await deleteDeadPropsBelow(ctx.kv, segs);
}
