/**
 * COPY and MOVE with Destination, Overwrite and Depth, over the Files API's copy/move (same permissions,
 * rule checks, hooks and atomic writes). A replaced destination folder is deleted first (needs `delete`), as
 * RFC 4918 asks, instead of being merged; a destination on another host or outside the endpoint is 502.
 */
import { BadRequestError, ConflictError, ForbiddenError, HttpError, NotFoundError } from "../errors.ts";
import { assertPermission, resolveScoped, scopedParent, type ScopedPath } from "../fs/gate.ts";
import { isSameOrInside } from "../fs/path.ts";
import { patchResource } from "../fs/transfer.ts";
import { deleteResource } from "../fs/remove.ts";
import { createDirectory } from "../fs/write.ts";
import { checkConditions, type DavContext, parentSegs, segsOf, vpathOfHeaderUrl } from "./context.ts";
import { copyDeadProps, deleteDeadPropsBelow, moveDeadProps } from "./dead_props.ts";
import { cleanUpAfterRemoval } from "./files.ts";
import { removeLocksBelow } from "./locks.ts";

function parseOverwrite(value: string | null): boolean {
  const v = (value ?? "T").trim().toUpperCase();
  if (v !== "T" && v !== "F") {
    throw new BadRequestError("Overwrite must be T or F", { code: "bad_overwrite" });
  }
  return v === "T";
}

function parseDepth(value: string | null, isMove: boolean): "0" | "infinity" {
  const v = (value ?? "infinity").trim().toLowerCase();
  if (v === "infinity" || (v === "0" && !isMove)) return v;
  throw new BadRequestError(`Depth ${v} is not allowed here`, { code: "bad_depth" });
}

function overlaps(a: ScopedPath, b: ScopedPath): boolean {
  return isSameOrInside(a.vpath, b.vpath) || isSameOrInside(b.vpath, a.vpath) ||
    isSameOrInside(a.real, b.real) || isSameOrInside(b.real, a.real);
}

/** Answers COPY (`isMove` false) or MOVE. */
export async function copyOrMove(ctx: DavContext, options: { isMove: boolean }): Promise<Response> {
  const { isMove } = options;
  const destination = ctx.request.headers.get("Destination");
  if (!destination) throw new BadRequestError("Destination header missing", { code: "no_destination" });
  const overwrite = parseOverwrite(ctx.request.headers.get("Overwrite"));
  const depth = parseDepth(ctx.request.headers.get("Depth"), isMove);
  const need = isMove ? "rename" : "create";
  const src = await resolveScoped(ctx.fs.gate, ctx.vpath, need);
  let dst = await resolveScoped(ctx.fs.gate, vpathOfHeaderUrl(ctx, destination), need);
  if (src.lstat === null) throw new NotFoundError();
  if (src.vpath === "/" || dst.vpath === "/") {
    throw new ForbiddenError("root", "Cannot copy or move the root folder");
  }
  if (overlaps(src, dst)) {
    throw new ForbiddenError("overlap", "Source and destination are the same or inside each other");
  }
  if (!(await scopedParent(dst)).stat?.isDirectory) {
    throw new ConflictError(
      "no_parent",
      `Cannot ${isMove ? "move" : "copy"}: the destination folder does not exist`,
    );
  }
  const existed = dst.lstat !== null;
  if (existed && !overwrite) throw new HttpError(412, "destination_exists");
  const changes = [{ segs: segsOf(dst), subtree: true }, { segs: parentSegs(dst) }];
  if (isMove) changes.push({ segs: segsOf(src), subtree: true }, { segs: parentSegs(src) });
  await checkConditions(ctx, src, changes);
  const srcIsDir = src.stat?.isDirectory === true;
  if (existed) {
    assertPermission(ctx.fs.gate.user, "modify");
    if (dst.stat?.isDirectory || srcIsDir) {
      // Replacing means deleting first (RFC 4918 9.8.4), never merging two folders.
      await deleteResource(ctx.fs, dst.vpath);
      await cleanUpAfterRemoval(ctx, segsOf(dst));
      dst = await resolveScoped(ctx.fs.gate, dst.vpath, need);
    } else {
      await deleteDeadPropsBelow(ctx.kv, segsOf(dst));
    }
  }
  if (!isMove && srcIsDir && depth === "0") {
    await createDirectory(ctx.fs, dst);
  } else {
    await patchResource(ctx.fs, src.vpath, {
      action: isMove ? "rename" : "copy",
      destination: dst.vpath,
      override: dst.lstat !== null,
      rename: false,
      signal: ctx.request.signal,
    });
  }
  if (isMove) {
    await moveDeadProps(ctx.kv, segsOf(src), segsOf(dst));
    await removeLocksBelow(ctx.kv, segsOf(src), ctx.now());
  } else {
    const subtree = depth === "infinity";
    await copyDeadProps(ctx.kv, segsOf(src), segsOf(dst), { subtree, userId: ctx.fs.user.id });
  }
  return new Response(null, { status: existed ? 204 : 201 });
}
