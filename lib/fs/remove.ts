/** DELETE /api/resources (docs/api.md): refuse-as-a-whole rule check, share cleanup, hooks, removal. */
import { pinAt, remove } from "./floor.ts";
import { ForbiddenError, NotFoundError } from "../errors.ts";
import { withHooks } from "../hooks.ts";
import { log } from "../log.ts";
import { shares } from "../storage/mod.ts";
import { resolveScoped, type ScopedPath } from "./gate.ts";
import { type FsRequest, hookContext } from "./request.ts";
import { findDeniedDescendant } from "./tree.ts";
import { isTrashEnabled, moveToTrash } from "../trash/mod.ts";

/** Options of {@link deleteResource}. */
export interface DeleteOptions {
  /** Skip the trash (`?permanent=true`); without a trash (`--trash-days 0`) every delete is permanent. */
  permanent?: boolean;
}

/**
 * Deletes a file or a folder tree (a symlink itself, never its target): into the user's trash when it is on,
 * else for good. Refuses `/` and any denied descendant.
 */
export async function deleteResource(
  req: FsRequest,
  vpath: string,
  options: DeleteOptions = {},
): Promise<void> {
  const p = await resolveScoped(req.gate, vpath, "delete");
  if (p.vpath === "/") throw new ForbiddenError("delete_root", "Cannot delete the root folder");
  if (p.lstat === null) throw new NotFoundError();
  const isTree = p.lstat.isDirectory;
  if (isTree) {
    const denied = await findDeniedDescendant(p);
    if (denied !== null) {
      throw new ForbiddenError("rule_denied", `Cannot delete: "${denied}" is denied by a rule`);
    }
  }
  if (req.kv && !p.confinement.ruleBase) {
    try {
      await shares.deleteSharesUnder(req.kv, req.user.id, p.vpath, (req.now ?? Date.now)());
    } catch (err) {
      log.warn(`Cannot remove share links under "${p.vpath}"`, err);
    }
  }
  await dropPreviewsUnder(req, p);
  const deps = req.deps;
  // Share-rooted paths are not the owner's vpaths: they cannot be restored to the right place.
  const toTrash = !options.permanent && deps && isTrashEnabled(deps.config) && !p.confinement.ruleBase;
  await withHooks(req.hooks, "delete", hookContext(req, p.path), async () => {
    if (toTrash) await moveToTrash(deps, req.user, p);
    else {
      using entry = pinAt(p);
      await remove(entry, { recursive: isTree });
    }
  });
}

/** Best-effort removal of cached previews for a file, or for every file of a tree. */
export async function dropPreviewsUnder(req: FsRequest, p: ScopedPath): Promise<void> {
  await req.previews?.dropPreviews(p).catch((err) =>
    log.warn(`Cannot drop cached previews of "${p.vpath}"`, err)
  );
}
