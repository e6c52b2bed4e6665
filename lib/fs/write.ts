/** POST (mkdir / upload) and PUT (save) of /api/resources (docs/api.md#resources), always atomic. */
import { ensureDirBeneath } from "./floor.ts";
import { ConflictError, MethodNotAllowedError, NotFoundError } from "../errors.ts";
import { withHooks } from "../hooks.ts";
import { assertPermission, resolveScoped, type ScopedPath } from "./gate.ts";
import { DIR_MODE, uploadEtag, type WriteBody, writeFileAtomic } from "./atomic.ts";
import { type FsRequest, hookContext } from "./request.ts";
import { quotaOf } from "../quota.ts";
import { heldBody, reserveQuota } from "../upload/reservations.ts";
import { assertNoDropUpload } from "../upload/drop_guard.ts";

/**
 * With a quota, the body holds quota bytes while it streams (lib/upload/reservations.ts): at most the room left
 * (less what parallel writes hold) plus the bytes of the file it replaces; a longer body fails with 507 while
 * streaming (nothing is left behind). Dispose of the result once the write ended.
 */
async function quotaGuarded(
  req: FsRequest,
  target: ScopedPath,
  body: WriteBody,
): Promise<{ body: WriteBody } & AsyncDisposable> {
  if (!req.deps || body === null || quotaOf(req.user) === 0) {
    return { body, [Symbol.asyncDispose]: () => Promise.resolve() };
  }
  const replaced = target.stat?.isFile ? target.stat.size : 0;
  const first = body instanceof Uint8Array ? body.byteLength - replaced : 0;
  const hold = await reserveQuota(req.deps, req.user, first);
  return {
    body: body instanceof Uint8Array ? body : heldBody(body, hold, replaced),
    [Symbol.asyncDispose]: hold.release,
  };
}

/** Options of {@link uploadResource}. */
export interface UploadOptions {
  /** `override=true`: replace an existing file (needs `modify`). */
  override: boolean;
  signal?: AbortSignal;
}

/** What a write answers with. */
export interface WriteResult {
  /** `"<hex mtime ns><hex size>"`, "" for directories. */
  etag: string;
}

/** Creates a folder and its missing parents (idempotent); a file in the way is 409. */
export async function createDirectory(req: FsRequest, target: ScopedPath): Promise<void> {
  await withHooks(req.hooks, "upload", hookContext(req, target.path), async () => {
    if (target.stat?.isDirectory) return;
    if (target.confinement.anchor) ensureDirBeneath(target.confinement.anchor, target.real, DIR_MODE);
    // floor-exempt: no floor in the unsafe mode that follows external links (anchor "").
    // floor-exempt: no floor in the unsafe mode that follows external links (anchor "").
    else await Deno.mkdir(target.real, { recursive: true, mode: DIR_MODE });
  });
}

/**
 * POST: a trailing slash makes a folder; otherwise the body becomes the file, written atomically. An existing
 * file needs `override` (else 409) and `modify` (else 403). On failure nothing is removed but our temp file.
 */
export async function uploadResource(
  req: FsRequest,
  vpath: string,
  body: WriteBody,
  options: UploadOptions,
): Promise<WriteResult> {
  const target = await resolveScoped(req.gate, vpath, "create");
  if (target.trailingSlash) {
    await createDirectory(req, target);
    return { etag: "" };
  }
  if (target.lstat !== null) {
    if (!options.override) {
      throw new ConflictError("exists", `Cannot upload "${target.vpath}": target exists`);
    }
    assertPermission(req.gate.user, "modify");
    if (target.stat?.isDirectory) {
      throw new ConflictError("is_directory", `Cannot upload "${target.vpath}": it is a folder`);
    }
    await req.previews?.dropPreviews(target).catch(() => 0);
  }
  await assertNoDropUpload(req.deps ?? req.kv, target.real, target.vpath);
  await using guarded = await quotaGuarded(req, target, body);
  const info = await withHooks(
    req.hooks,
    "upload",
    hookContext(req, target.path),
    () => writeFileAtomic(target, guarded.body, { createParents: true, signal: options.signal }),
  );
  return { etag: uploadEtag(info) };
}

/** PUT: replaces the content of an existing file atomically (405 for a trailing slash, 404 when missing). */
export async function saveResource(
  req: FsRequest,
  vpath: string,
  body: WriteBody,
  options: { signal?: AbortSignal } = {},
): Promise<WriteResult> {
  const target = await resolveScoped(req.gate, vpath, "modify");
  if (target.trailingSlash) throw new MethodNotAllowedError();
  if (target.lstat === null || target.stat === null) throw new NotFoundError();
  if (target.stat.isDirectory) {
    throw new ConflictError("is_directory", `Cannot save "${target.vpath}": it is a folder`);
  }
  await using guarded = await quotaGuarded(req, target, body);
  await req.previews?.dropPreviews(target).catch(() => 0);
  const info = await withHooks(
    req.hooks,
    "save",
    hookContext(req, target.path),
    () => writeFileAtomic(target, guarded.body, { signal: options.signal }),
  );
  return { etag: uploadEtag(info) };
}
