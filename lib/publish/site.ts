/**
 * The site's folders as seen by one user. The settings keep the site folder as a vpath from the files root; a
 * user reaches the content and archetypes folders through their own scope and the gate, and a post must really
 * (symlinks resolved) lie inside the content folder.
 */
import { BadRequestError, ForbiddenError, NotFoundError } from "../errors.ts";
import { type GateContext, resolveScoped, type ScopedPath } from "../fs/gate.ts";
import { cleanVpath, isSameOrInside } from "../fs/path.ts";
import { normalizeSiteSettings } from "../settings.ts";
import type { Settings, SiteSettings, StoredUser } from "../types.ts";

/** The site settings of a settings record, normalised. */
export function siteOf(settings: Settings): SiteSettings {
  return normalizeSiteSettings(settings.site);
}

/** True when publishing is on and a site folder is set. */
export function isSiteEnabled(site: SiteSettings): boolean {
  return site.enabled && site.path !== "";
}

/** The vpath, in a user's scope, of a path from the files root; null when it lies outside the scope. */
export function scopedVpathOf(scope: string, rootPath: string): string | null {
  const base = cleanVpath("/" + scope).path;
  const path = cleanVpath(rootPath).path;
  if (!isSameOrInside(base, path)) return null;
  return base === "/" ? path : path.slice(base.length) || "/";
}

/** The content folder as a path from the files root. */
export function contentRootPath(site: SiteSettings): string {
  return cleanVpath(`${site.path}/${site.contentDir}`).path;
}

/** The archetypes folder as a path from the files root. */
export function archetypesRootPath(site: SiteSettings): string {
  return cleanVpath(`${site.path}/${site.archetypesDir}`).path;
}

/** The content folder through the user's gate; 404 when publishing is off, 403 outside the user's scope. */
export async function resolveContent(
  gate: GateContext,
  site: SiteSettings,
  user: Pick<StoredUser, "scope">,
): Promise<ScopedPath> {
  if (!isSiteEnabled(site)) throw new NotFoundError("site_disabled", "Publishing is off");
  const vpath = scopedVpathOf(user.scope, contentRootPath(site));
  if (vpath === null) throw new ForbiddenError("outside_content", "The content folder is outside your scope");
  const content = await resolveScoped(gate, vpath, "read");
  if (!content.stat?.isDirectory) throw new NotFoundError("content_missing", "The content folder is missing");
  return content;
}

/** Throws 403 `outside_content` unless `p` really lies beneath the content folder. */
export function assertInContent(content: ScopedPath, p: ScopedPath): void {
  if (p.real === content.real || !isSameOrInside(content.real, p.real)) {
    throw new ForbiddenError("outside_content", `"${p.vpath}" is not inside the content folder`);
  }
}

/** Real path of the site folder (the build's working directory); null when it is missing or leaves the root. */
export async function siteRootReal(root: string, site: SiteSettings): Promise<string | null> {
  try {
    // floor-exempt: real paths only (the build's working directory), the site folder checked to lie in the root.
    const rootReal = await Deno.realPath(root);
    // floor-exempt: as above.
    const real = await Deno.realPath(`${rootReal}${site.path === "/" ? "" : site.path}`);
    return isSameOrInside(rootReal, real) ? real : null;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/**
 * Checks the site settings an admin saves: when publishing is switched on or the site folder changes, the folder
 * must exist and lie inside the admin's own scope (through the gate).
 */
export async function validateSiteSettings(
  nextSettings: Settings,
  currentSettings: Settings,
  gate: GateContext,
): Promise<void> {
  const [next, current] = [siteOf(nextSettings), siteOf(currentSettings)];
  if (!next.enabled || (current.enabled && current.path === next.path)) return;
  if (next.path === "") {
    throw new BadRequestError("Cannot enable publishing: no site folder", { code: "site_missing" });
  }
  const vpath = scopedVpathOf(gate.user.scope, next.path);
  if (vpath === null) {
    throw new BadRequestError(`Cannot enable publishing: "${next.path}" is outside your scope`, {
      code: "site_outside_scope",
    });
  }
  const folder = await resolveScoped(gate, vpath, "read");
  if (!folder.stat?.isDirectory) {
    throw new BadRequestError(`Cannot enable publishing: "${next.path}" is not a folder`, {
      code: "site_missing",
    });
  }
}
