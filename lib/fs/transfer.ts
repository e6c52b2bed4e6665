/** PATCH /api/resources (docs/api.md): copy or move with `override`/`rename`, checked as a whole first. */
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "../errors.ts";
import { withHooks } from "../hooks.ts";
import { copyEntry } from "./copy.ts";
import { assertPermission, type Need, resolveScoped, type ScopedPath } from "./gate.ts";
import { isSameEntry, moveEntry } from "./move.ts";
import { isSameOrInside, joinVpath, splitExtension, vpathBase, vpathDir } from "./path.ts";
import { assertTreeFits } from "./path_limits.ts";
import { dropPreviewsUnder } from "./remove.ts";
import { type FsRequest, hookContext } from "./request.ts";
import { findDeniedDescendant } from "./tree.ts";
import { reserveQuota } from "../upload/reservations.ts";
import { assertNoDropUpload } from "../upload/drop_guard.ts";
import { sizeOfEntry } from "../trash/move.ts";

/** Query of a PATCH request. */
export interface PatchOptions {
  /** `copy` or `rename`; anything else is a 400 after the path checks. */
  action: string;
  /** The destination vpath, already decoded twice (see {@link decodeDestination}). */
  destination: string;
  override: boolean;
  /** Pick a free `name(N).ext` instead of failing with 409. */
  rename: boolean;
  signal?: AbortSignal;
}

/** Most `name(N)` candidates tried before giving up. */
const MAX_AUTO_NAMES = 10_000;

/**
 * The second decoding of PATCH `destination` (the client double-encodes): `+` is a space and `%XX` escapes are
 * decoded; a malformed escape is a 400 (upstream: 500). Missing → `/`.
 */
export function decodeDestination(value: string | undefined): string {
  if (value === undefined || value === "") return "/";
  try {
    return decodeURIComponent(value.replaceAll("+", " "));
  } catch {
    throw new BadRequestError("invalid destination encoding", { code: "bad_destination" });
  }
}

/** `a.tar.gz` → `a.tar(3).gz`, `folder` → `folder(3)`, `.bashrc` → `(3).bashrc`. */
export function numberedName(name: string, n: number): string {
  const { stem, ext } = splitExtension(name);
  return `${stem}(${n})${ext}`;
}

async function freeName(req: FsRequest, dst: ScopedPath, need: Need): Promise<ScopedPath> {
  const dir = vpathDir(dst.vpath);
  const name = vpathBase(dst.vpath);
  for (let n = 1; n <= MAX_AUTO_NAMES; n++) {
    const candidate = await resolveScoped(req.gate, joinVpath(dir, numberedName(name, n)), need);
    if (candidate.lstat === null) return candidate;
  }
  throw new ConflictError("no_free_name", `Cannot find a free name for "${dst.vpath}"`);
}

/** Copies or moves `srcVpath` per the PATCH query; refuses as a whole (403) if any descendant is denied. */
export async function patchResource(req: FsRequest, srcVpath: string, options: PatchOptions): Promise<void> {
  const action = options.action;
  const need: Need = action === "copy" ? "create" : action === "rename" ? "rename" : "read";
  const src = await resolveScoped(req.gate, srcVpath, need);
  let dst = await resolveScoped(req.gate, options.destination, need);
  if (src.vpath === "/" || dst.vpath === "/") {
    throw new ForbiddenError("root", "Cannot copy or move the root folder");
  }
  if (dst.vpath !== src.vpath && isSameOrInside(src.vpath, dst.vpath)) {
    throw new BadRequestError("source is parent", { code: "source_is_parent" });
  }
  if (action !== "copy" && action !== "rename") {
    throw new BadRequestError(`unsupported action ${action}: invalid request params`, { code: "bad_action" });
  }
  if (src.lstat === null) throw new NotFoundError();
  const sameEntry = action === "rename" && isSameEntry(src, dst);
  if (!sameEntry && dst.lstat !== null) {
    if (options.rename) dst = await freeName(req, dst, need);
    else if (!options.override) {
      throw new ConflictError("exists", `Cannot ${action} "${src.vpath}": target exists`);
    } else assertPermission(req.gate.user, "modify");
  }
  if (!sameEntry && dst.stat !== null && src.stat !== null && dst.stat.isDirectory !== src.stat.isDirectory) {
    throw new ConflictError(
      "kind_mismatch",
      `Cannot ${action} "${src.vpath}": "${dst.vpath}" is a different kind of entry`,
    );
  }
  if (!sameEntry && dst.vpath === src.vpath) {
    throw new BadRequestError("source and destination are the same", { code: "same_path" });
  }
  // Through symlinks a destination can still end up inside the source folder: compare real paths too.
  if (src.stat?.isDirectory && !src.lstat.isSymlink && isSameOrInside(src.real, dst.real)) {
    throw new BadRequestError("source is parent", { code: "source_is_parent" });
  }
  const follows = action === "copy" || !src.lstat.isSymlink;
  const denied = follows ? await findDeniedDescendant(src, { dst }) : null;
  if (denied !== null) {
    throw new ForbiddenError("rule_denied", `Cannot ${action}: "${denied}" is denied by a rule`);
  }
  if (follows) await assertTreeFits(src, dst);
  await assertNoDropUpload(req.deps ?? req.kv, dst.real, dst.vpath);
  // A copy adds the source's bytes, less those of the entry it replaces; they stay held until it is done.
  await using _hold = action === "copy" && req.deps && src.stat
    ? await reserveQuota(
      req.deps,
      req.user,
      await sizeOfEntry(src.real, src.stat) - (dst.stat ? await sizeOfEntry(dst.real, dst.stat) : 0),
    )
    : null;
  await withHooks(req.hooks, action, hookContext(req, src.path, dst.path), async () => {
    if (action === "copy") {
      await copyEntry(src, dst, { signal: options.signal });
      return;
    }
    await dropPreviewsUnder(req, src);
    await moveEntry(src, dst, { signal: options.signal });
  });
}
