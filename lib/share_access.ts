/**
 * Public access to share links (docs/api.md#shares): the link, password (or bypass token) and owner checks, then
 * the shared item's JSON and downloads through the owner's gate. Password guesses go through the share throttle.
 */
import { ForbiddenError, NotFoundError, UnauthorizedError } from "./errors.ts";
import { verifyPassword } from "./auth/passwords.ts";
import { type GateContext, resolveScoped } from "./fs/gate.ts";
import { cleanVpath, vpathBase } from "./fs/path.ts";
import { getResourceJson } from "./fs/resources.ts";
import type { ListingCache } from "./fs/listing_cache.ts";
import { openRaw, type RawRequest } from "./fs/raw.ts";
import type { FileDownload } from "./fs/download.ts";
import { shares, type StoredShare, users } from "./storage/mod.ts";
import type { Resource, Settings, StoredUser } from "./types.ts";
import type { AppDeps } from "./state.ts";

function constantTimeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < y.length; i++) diff |= y[i] ^ (x[i % (x.length || 1)] ?? 0);
  return diff === 0;
}

/** Credentials of a public request. */
export interface PublicCredentials {
  /** `X-SHARE-PASSWORD` header, still percent-encoded. */
  password?: string | null;
  /** `?token=` query. */
  token?: string | null;
  /** Client address, for brute-force throttling. */
  client: string;
}

/** A public request that passed the link, password and owner checks. */
export interface OpenedShare {
  link: StoredShare;
  owner: StoredUser;
  /** Gate context for `target` (re-rooted at the shared folder for folder shares). */
  ctx: GateContext;
  /** Vpath of the target in `ctx`. */
  target: string;
  /** The link points at a single file. */
  isFile: boolean;
}

function decodePassword(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return "";
  }
}

async function checkCredentials(deps: AppDeps, link: StoredShare, cred: PublicCredentials): Promise<void> {
  if (!link.passwordHash) return;
  if (cred.token && constantTimeEqual(cred.token, link.token)) return;
  const password = decodePassword(cred.password ?? "");
  if (!cred.token && !password) throw new UnauthorizedError("share_password_required");
  // Count the guess before the first await, so simultaneous guesses cannot all be evaluated.
  const attempt = await deps.throttles.share.reserve(cred.client, link.hash, deps.now());
  if (password && await verifyPassword(password, link.passwordHash)) {
    await attempt.release();
    return;
  }
  throw new UnauthorizedError("share_password_wrong");
}

/** Splits `<hash>[/<sub>]` of a public URL: the hash is taken verbatim, `sub` defaults to `/`. */
export function splitSharePath(rest: string): { hash: string; sub: string } {
  const slash = rest.indexOf("/");
  return { hash: slash < 0 ? rest : rest.slice(0, slash), sub: slash < 0 ? "/" : rest.slice(slash) || "/" };
}

/** Runs the public share checks for `/<hash>/<sub>` and returns where the answer comes from. */
export async function openShare(
  deps: AppDeps,
  settings: Settings,
  options: { hash: string; sub: string; credentials: PublicCredentials },
): Promise<OpenedShare> {
  const link = await shares.findShare(deps.kv, options.hash, deps.now());
  if (!link) throw new NotFoundError();
  await checkCredentials(deps, link, options.credentials);
  const owner = await users.findUser(deps.kv, link.userID);
  if (!owner) throw new NotFoundError();
  if (!owner.perm.share || !owner.perm.download) throw new ForbiddenError("owner_cannot_share");
  const ownerCtx: GateContext = {
    root: deps.config.root,
    user: owner,
    globalRules: settings.rules,
    followExternalSymlinks: deps.config.followExternalSymlinks,
    foldCase: await deps.foldCase(),
  };
  const root = await resolveScoped(ownerCtx, link.path, "read");
  if (root.lstat === null || root.stat === null) throw new NotFoundError();
  if (!root.stat.isDirectory) return { link, owner, ctx: ownerCtx, target: link.path, isFile: true };
  return { link, owner, ctx: { ...ownerCtx, base: link.path }, target: options.sub || "/", isFile: false };
}

/**
 * GET /api/public/share: the target as the JSON of a Resource, through the listing pipeline of
 * /api/resources (no content; folder listings name-sorted, no sniffing), in chunks (see chunkedBody).
 */
export async function publicResourceJson(
  opened: OpenedShare,
  options: { listings?: ListingCache } = {},
): Promise<Uint8Array<ArrayBuffer>[]> {
  // Without `download` in the context, no file content is read.
  const ctx: GateContext = {
    ...opened.ctx,
    user: { ...opened.ctx.user, perm: { ...opened.owner.perm, download: false } },
  };
  const decorate = (out: Resource & { token?: string }) => {
    delete out.content;
    if (opened.isFile) {
      out.path = "";
      // Subtitles are found next to the file, i.e. outside a single-file share: their paths are not shared.
      delete out.subtitles;
    } else if (out.isDir) out.name = vpathBase(cleanVpath(opened.link.path).path);
    if (opened.link.passwordHash) out.token = opened.link.token;
  };
  const { json } = await getResourceJson(ctx, opened.target, {
    sorting: { by: "name", asc: false },
    readHeaders: false,
    listings: options.listings,
    decorate,
  });
  return json!;
}

/** GET /api/public/dl: the target streamed like /api/raw (folders as archives). */
export function publicDownload(opened: OpenedShare, request: RawRequest): Promise<FileDownload> {
  return openRaw(opened.ctx, opened.target, request);
}
