/**
 * The data of the share pages, loaded on the server so the page renders with it (its island asks the API only
 * when the page came without): the share management table and the public share page.
 */
import { toHttpError } from "./errors.ts";
import { type DropInfo, dropInfo } from "./drop.ts";
import { listSharesFor } from "./shares.ts";
import { parseJsonChunks } from "./fs/resources.ts";
import { openShare, type PublicCredentials, publicResourceJson } from "./share_access.ts";
import { users } from "./storage/mod.ts";
import type { RequestContext } from "./request_context.ts";
import type { AppDeps } from "./state.ts";
import type { Resource, Settings, Share, StoredUser } from "./types.ts";

/**
 * The links the share management page lists (what GET /api/shares answers), with the owner's name for admins;
 * null when the user may not manage links (the page then shows the API's refusal).
 */
export async function findManagedShares(ctx: RequestContext): Promise<Share[] | null> {
  const user: StoredUser = ctx.user;
  if (!user.perm.share || !user.perm.download) return null;
  const list = await listSharesFor(ctx);
  if (!user.perm.admin) return list;
  const names = new Map((await users.listUsers(ctx.kv)).map((u) => [u.id, u.username]));
  return list.map((l) => ({ ...l, username: names.get(l.userID) ?? String(l.userID) }));
}

/** What the public share page shows: the shared item (GET /api/public/share), or a drop link's limits. */
export type PublicPageData = Resource & { token?: string; drop?: DropInfo };

/**
 * The public share page's data for `/<hash><sub>` as a visitor without a password sees it, or null when the page
 * must ask the API itself: the link is gone, needs a password, or is refused (the page shows each case from
 * the API's answer). A password link never gets here with its bypass token: a page load has no password.
 */
export async function findPublicPage(
  deps: AppDeps,
  settings: Settings,
  req: { hash: string; sub: string; client: string },
): Promise<PublicPageData | null> {
  const credentials: PublicCredentials = { client: req.client };
  try {
    const opened = await openShare(deps, settings, { hash: req.hash, sub: req.sub, credentials });
    if (opened.link.kind !== "drop") {
      // The same bytes GET /api/public/share answers (one listing pipeline), read back as the page's data.
      const parts = await publicResourceJson(opened, { listings: deps.listings });
      return await parseJsonChunks<PublicPageData>(parts);
    }
    if (req.sub !== "/") return null;
    const drop = await dropInfo(deps, settings, { rest: req.hash, credentials });
    return { drop, name: drop.name, path: "/", isDir: true } as PublicPageData;
  } catch (err) {
    // A refusal is the page's to show (password card, "link gone"); failures of the server still fail.
    // (Foreign errors too: a missing sub-folder is Deno's NotFound, a 404 as the API answers it.)
    if (toHttpError(err).status < 500) return null;
    throw err;
  }
}
