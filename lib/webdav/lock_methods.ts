/**
 * LOCK (new lock, refresh, lock on an unmapped URL creating an empty file) and UNLOCK. Write locks only,
 * exclusive or shared, Depth 0 or infinity, with timeouts (docs/api.md#webdav).
 */
import { BadRequestError, ConflictError, ForbiddenError, HttpError } from "../errors.ts";
import { resolveScoped, scopedParent } from "../fs/gate.ts";
import { uploadResource } from "../fs/write.ts";
import { checkConditions, type DavContext, hrefOf, parentSegs, segsOf } from "./context.ts";
import { parseIf, submittedTokens } from "./conditions.ts";
import {
  createLock,
  type DavLock,
  findLock,
  lockCovers,
  mayRemoveLock,
  newLockToken,
  parseTimeout,
  realSegments,
  refreshLock,
  removeLock,
} from "./locks.ts";
import { utf8Length } from "../names.ts";
import { activeLockXml } from "./props_xml.ts";
import {
  childElements,
  DAV_NS,
  davChild,
  parseXml,
  readXmlText,
  serializeChildren,
  type XmlElement,
} from "./xml.ts";

function lockAnswer(lock: DavLock, now: number, status: number): Response {
  const body = `<?xml version="1.0" encoding="utf-8"?>\n<prop xmlns="DAV:"><lockdiscovery>${
    activeLockXml(lock, now)
  }</lockdiscovery></prop>\n`;
  return new Response(body, {
    status,
    headers: { "Content-Type": "application/xml; charset=utf-8", "Lock-Token": `<${lock.token}>` },
  });
}

/** Largest owner element of a lock (UTF-8 bytes, serialised). */
export const MAX_OWNER_BYTES = 1024;

function parseLockInfo(root: XmlElement): { scope: DavLock["scope"]; owner: string } {
  if (root.ns !== DAV_NS || root.name !== "lockinfo") {
    throw new BadRequestError("bad lockinfo", { code: "bad_lock" });
  }
  const scopeEl = davChild(root, "lockscope");
  const typeEl = davChild(root, "locktype");
  const scope = scopeEl ? childElements(scopeEl, DAV_NS)[0]?.name : undefined;
  if (scope !== "exclusive" && scope !== "shared") {
    throw new BadRequestError("bad lockscope", { code: "bad_lock" });
  }
  if (!typeEl || !davChild(typeEl, "write")) {
    throw new BadRequestError("only write locks exist", { code: "bad_lock" });
  }
  const ownerEl = davChild(root, "owner");
  const owner = ownerEl ? serializeChildren(ownerEl, "") : "";
  // Stored with the lock and sent in every lockdiscovery of the resource.
  if (utf8Length(owner, MAX_OWNER_BYTES) > MAX_OWNER_BYTES) {
    throw new BadRequestError(`owner longer than ${MAX_OWNER_BYTES} bytes`, { code: "bad_lock" });
  }
  return { scope, owner };
}

/** Answers a LOCK: a new lock (200, or 201 when an empty file was created) or a refresh (200). */
export async function lock(ctx: DavContext): Promise<Response> {
  const text = await readXmlText(ctx.request);
  const now = ctx.now();
  const timeout = parseTimeout(ctx.request.headers.get("Timeout"));
  const p = await resolveScoped(ctx.fs.gate, ctx.vpath, "read");
  if (text === null) {
    // A refresh names the lock in the If header.
    const header = ctx.request.headers.get("If");
    if (!header) throw new BadRequestError("LOCK refresh needs an If header", { code: "bad_lock" });
    for (const token of submittedTokens(parseIf(header))) {
      const found = await findLock(ctx.kv, token, now);
      if (found && found.userId === ctx.fs.user.id && lockCovers(found, segsOf(p))) {
        return lockAnswer(await refreshLock(ctx.kv, found, timeout, now), now, 200);
      }
    }
    throw new HttpError(412, "no_lock_to_refresh");
  }
  const created = p.lstat === null;
  // A new lock needs the permission to create or change the resource, checked before its body is parsed.
  await resolveScoped(ctx.fs.gate, ctx.vpath, created ? "create" : "modify");
  const info = parseLockInfo(parseXml(text));
  const depthHeader = (ctx.request.headers.get("Depth") ?? "infinity").trim().toLowerCase();
  if (depthHeader !== "0" && depthHeader !== "infinity") {
    throw new BadRequestError("LOCK Depth must be 0 or infinity", { code: "bad_depth" });
  }
  if (created) {
    if (p.trailingSlash || !(await scopedParent(p)).stat?.isDirectory) throw new ConflictError("no_parent");
    await checkConditions(ctx, p, [{ segs: parentSegs(p) }]);
  } else {
    await checkConditions(ctx, p, []);
  }
  const isDir = p.stat?.isDirectory === true;
  const lock: DavLock = {
    token: newLockToken(),
    segs: segsOf(p),
    root: hrefOf(ctx, p.vpath, isDir),
    depth: isDir ? depthHeader as DavLock["depth"] : "0",
    scope: info.scope,
    owner: info.owner,
    userId: ctx.fs.user.id,
    scopeSegs: realSegments(p.confinement.rootReal),
    timeout,
    expires: now + timeout * 1000,
  };
  await createLock(ctx.kv, lock, now);
  if (created) {
    try {
      await uploadResource(ctx.fs, p.vpath, null, { override: false });
    } catch (err) {
      await removeLock(ctx.kv, lock);
      throw err;
    }
  }
  return lockAnswer(lock, now, created ? 201 : 200);
}

/**
 * Answers an UNLOCK: 204, 409 when the token is not a lock on this resource, 403 for another user's lock unless
 * the requester is an admin or an owner of the scope it lies in (lib/webdav/locks.ts, mayRemoveLock).
 */
export async function unlock(ctx: DavContext): Promise<Response> {
  const header = ctx.request.headers.get("Lock-Token")?.trim() ?? "";
  const m = header.match(/^<([^>]+)>$/);
  if (!m) throw new BadRequestError("Lock-Token header missing or malformed", { code: "bad_lock_token" });
  const p = await resolveScoped(ctx.fs.gate, ctx.vpath, "read");
  const found = await findLock(ctx.kv, m[1], ctx.now());
  if (!found || !lockCovers(found, segsOf(p))) throw new ConflictError("lock_token_mismatch");
  const who = {
    userId: ctx.fs.user.id,
    admin: ctx.fs.user.perm.admin,
    scopeSegs: realSegments(p.confinement.rootReal),
  };
  if (!mayRemoveLock(found, who)) throw new ForbiddenError("not_lock_owner");
  await removeLock(ctx.kv, found);
  return new Response(null, { status: 204 });
}
