/**
 * The one gate every file operation goes through (docs/architecture.md). `resolveScoped()` checks the
 * permission, canonicalises the vpath, applies global then user rules and dot-file hiding, confines the path
 * to the user's scope (segment by segment, symlinks resolved) and returns a branded `ScopedPath`. The other
 * `lib/fs` modules accept only `ScopedPath`, so unchecked disk access does not type-check.
 *
 * Public shares re-root the gate: `base` is the share's path in the owner's scope; vpaths are then relative to
 * the shared directory, confinement happens at that directory, and rules see `base + vpath`.
 */
import { ForbiddenError, HttpError, NotFoundError } from "../errors.ts";
import { log } from "../log.ts";
import type { Permission, Rule, StoredUser } from "../types.ts";
import { lstatOrNull, type Resolution, resolveConfined, resolveLexical } from "./confine.ts";
import { canonicalPath, cleanVpath, isSameOrInside, joinVpath, vpathDir, vpathSegments } from "./path.ts";
import { hasHiddenSegment, isAllowedByRules, type RuleSet } from "./rules.ts";
import { assertNewNames, assertPathFits, isCreating } from "./path_limits.ts";
import { isVisible, resolvedVpath, rulePathOf } from "./visibility.ts";

export { type ChildVisibility, childVisibility, isVisible, realVpathOf } from "./visibility.ts";

/** What the gate needs to know about the request. */
export interface GateContext {
  /** Absolute server root; the user's scope is resolved beneath it. */
  root: string;
  user: Pick<StoredUser, "scope" | "perm" | "rules" | "hideDotfiles"> & { username?: string };
  /** `settings.rules`, evaluated before the user's rules. */
  globalRules: readonly Rule[];
  /** Unsafe mode: follow symlinks wherever they point (lexical confinement only). */
  followExternalSymlinks: boolean;
  /**
   * Compare non-regex rules case-insensitively: the app's probe of the root (`AppDeps.foldCase`, true on
   * case-insensitive file systems).
   */
  foldCase: boolean;
  /** Public shares: the shared path in the owner's scope; confinement and vpaths start there. */
  base?: string;
}

/** A permission an operation needs; `read` means "logged in" (no flag). */
export type Need = "read" | Permission;

declare const SCOPED: unique symbol;

/** The confinement a ScopedPath was checked against; used to derive children without re-checking ancestors. */
export interface Confinement {
  /** Real path of the confinement root (the user's scope, or the shared directory). */
  readonly rootReal: string;
  /**
   * Real path of the files root, the anchor of the disk floor (floor.ts): every operation opens its path
   * beneath it without following symlinks. "" in the unsafe mode that follows external links (no floor).
   */
  readonly anchor: string;
  /** Prefix added to vpaths before rule evaluation ("" except for shares). */
  readonly ruleBase: string;
  readonly rules: RuleSet;
  readonly hideDotfiles: boolean;
  readonly followExternal: boolean;
}

/** A path that passed the gate. Only `resolveScoped()`/`scopedChild()` create these. */
export interface ScopedPath extends Resolution {
  readonly [SCOPED]: true;
  /** Canonical vpath relative to the confinement root, without trailing slash (`/` for the root). */
  readonly vpath: string;
  /** The raw vpath ended with `/` (POST = mkdir, PUT = 405). */
  readonly trailingSlash: boolean;
  /** The path the rules were evaluated on (owner-scope path for shares). */
  readonly rulePath: string;
  readonly confinement: Confinement;
}

/** Throws unless the user has every permission in `need` (missing `download` is 202, upstream's quirk). */
export function assertPermission(user: GateContext["user"], need: Need | readonly Need[]): void {
  for (const n of typeof need === "string" ? [need] : need) {
    if (n === "read" || user.perm[n]) continue;
    if (n === "download") throw new HttpError(202, "download_not_allowed");
    throw new ForbiddenError("permission_denied", `Missing permission "${n}"`);
  }
}

/** The on-disk directory of the user's scope: server root joined with the cleaned scope (cannot climb out). */
export function scopeDirOf(ctx: { root: string; user: Pick<StoredUser, "scope"> }): string {
  return canonicalPath(`${ctx.root}/${cleanVpath("/" + ctx.user.scope).path}`);
}

/** The confinement of each gate context, resolved once per context (a request's, or a share's). */
const rootCache = new WeakMap<GateContext, Promise<Confinement>>();

/** How long the real path of a confinement root (a scope, a shared folder) is reused across requests. */
const ROOT_REAL_TTL_MS = 1000;
const MAX_ROOT_REALS = 1000;
const rootReals = new Map<string, { real: string; until: number }>();

/**
 * `Deno.realPath` of a confinement root, remembered for {@link ROOT_REAL_TTL_MS} (one native call per scope and
 * second instead of one per request). Staleness cannot widen access: every path below is still resolved and
 * checked on disk per request, so a remembered root that has since become a symlink is followed by the kernel only
 * where an uncached realPath would lead too (its final entry), and deeper ancestors resolve outside the remembered
 * root and are refused. At worst a moved scope keeps answering from where it was for up to a second. A missing
 * root is never remembered.
 */
async function rootRealPath(lexical: string): Promise<string> {
  const now = performance.now();
  const hit = rootReals.get(lexical);
  if (hit !== undefined && hit.until > now) return hit.real;
  const real = await Deno.realPath(lexical);
  if (rootReals.size >= MAX_ROOT_REALS) rootReals.clear();
  rootReals.set(lexical, { real, until: now + ROOT_REAL_TTL_MS });
  return real;
}

/** A scope whose real location is outside the real files root: refused, logged once per user and minute. */
const warnedScopes = new Map<string, number>();

function scopeOutsideRoot(ctx: GateContext): ForbiddenError {
  const who = ctx.user.username ?? ctx.user.scope;
  const now = performance.now();
  if ((warnedScopes.get(who) ?? -Infinity) < now - 60_000) {
    if (warnedScopes.size > 1000) warnedScopes.clear();
    warnedScopes.set(who, now);
    log.warn(`scope of user ${JSON.stringify(who)} leads outside the files root through a link; refused`);
  }
  return new ForbiddenError("scope_outside_root", "The scope leads outside the files root");
}

async function confinementOf(ctx: GateContext): Promise<Confinement> {
  let lexical = scopeDirOf(ctx);
  const ruleBase = ctx.base ? cleanVpath(ctx.base).path : "";
  if (ruleBase && ruleBase !== "/") lexical = canonicalPath(`${lexical}/${ruleBase}`);
  let rootReal: string;
  try {
    rootReal = ctx.followExternalSymlinks ? lexical : await rootRealPath(lexical);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new NotFoundError("scope_missing", undefined, { cause: err });
    }
    throw err;
  }
  let anchor = "";
  if (!ctx.followExternalSymlinks) {
    anchor = await rootRealPath(canonicalPath(ctx.root));
    const scopeReal = ruleBase ? await rootRealPath(scopeDirOf(ctx)) : rootReal;
    // A scope that is (or lies below) a link to elsewhere is never followed (docs/security.md).
    if (!isSameOrInside(anchor, scopeReal)) throw scopeOutsideRoot(ctx);
    // The shared directory itself must still be inside the owner's scope.
    if (ruleBase && !isSameOrInside(scopeReal, rootReal)) throw new ForbiddenError("symlink_escape");
  }
  return {
    rootReal,
    anchor,
    ruleBase: ruleBase === "/" ? "" : ruleBase,
    rules: {
      globalRules: ctx.globalRules,
      userRules: ctx.user.rules,
      foldCase: ctx.foldCase,
    },
    hideDotfiles: ctx.user.hideDotfiles,
    followExternal: ctx.followExternalSymlinks,
  };
}

function getConfinement(ctx: GateContext): Promise<Confinement> {
  let p = rootCache.get(ctx);
  if (!p) {
    p = confinementOf(ctx);
    rootCache.set(ctx, p);
    p.catch(() => rootCache.delete(ctx));
  }
  return p;
}

/** Where `segments` lead in a confinement: confined resolution, or lexical when external links are followed. */
function resolveIn(conf: Confinement, segments: string[]): Promise<Resolution> {
  return conf.followExternal
    ? resolveLexical(conf.rootReal, segments)
    : resolveConfined(conf.rootReal, segments);
}

/** Brands a resolution of `vpath` in `conf` as checked; the only place a ScopedPath is made. */
function scoped(conf: Confinement, at: Resolution, vpath: string, trailingSlash = false): ScopedPath {
  const fields: Omit<ScopedPath, typeof SCOPED> = {
    path: at.path,
    real: at.real,
    lstat: at.lstat,
    stat: at.stat,
    vpath,
    trailingSlash,
    rulePath: rulePathOf(conf, vpath),
    confinement: conf,
  };
  return fields as ScopedPath;
}

/** Canonicalises `vpath`, checks that it fits, and resolves it in the context's confinement (no rule check). */
async function locate(ctx: GateContext, vpath: string) {
  const clean = cleanVpath(vpath);
  const conf = await getConfinement(ctx);
  assertPathFits(conf.rootReal, clean.path);
  const segments = vpathSegments(clean.path);
  return { clean, conf, segments, resolve: () => resolveIn(conf, segments) };
}

/**
 * The gate: permission → limits → rules/hidden → confinement. `vpath` is the router-decoded path (cleaned here).
 * Throws 202/403 for permissions, 400/414 for a path no file system takes (NUL, over-long), 403 for rule/hidden
 * denial and symlink escapes, 404 for a missing scope, and 400 when a creating need (`create`, `rename`) would
 * make a missing part with a name that is not a valid new name (see lib/names.ts).
 * The returned path may not exist (`lstat === null`); operations decide what that means.
 */
export async function resolveScoped(
  ctx: GateContext,
  vpath: string,
  need: Need | readonly Need[],
): Promise<ScopedPath> {
  assertPermission(ctx.user, need);
  const { clean, conf, segments, resolve } = await locate(ctx, vpath);
  const rulePath = rulePathOf(conf, clean.path);
  if (conf.hideDotfiles && hasHiddenSegment(rulePath)) throw new ForbiddenError("hidden", "Path is hidden");
  if (!isAllowedByRules(rulePath, conf.rules)) {
    throw new ForbiddenError("rule_denied", "Path is denied by a rule");
  }
  const resolution = await resolve();
  const target = resolvedVpath(conf, clean.path, resolution.real);
  if (target !== null && !isVisible(conf, target)) {
    throw new ForbiddenError("rule_denied", "Path resolves to a denied or hidden path");
  }
  // What an operation creates must stay addressable: no control characters or separators in new names.
  if (resolution.lstat === null && isCreating(need)) await assertNewNames(conf.rootReal, segments);
  return scoped(conf, resolution, clean.path, clean.trailingSlash);
}

/**
 * Confinement without the rule check, for walk bases (search) whose entries are each judged by
 * {@link isVisible}. Symlinks are still resolved and refused when they escape.
 */
export async function resolveWalkBase(ctx: GateContext, vpath: string): Promise<ScopedPath> {
  const { clean, conf, resolve } = await locate(ctx, vpath);
  return scoped(conf, await resolve(), clean.path, clean.trailingSlash);
}

/** What a directory walker knows about a child before the gate looks at it. */
export interface ChildHint {
  /** lstat of the child, when the walker already has it. */
  lstat?: Deno.FileInfo;
  /** Skip the dot-file check of the name (recursive operations, like upstream); a link's target still gets it. */
  ignoreHidden?: boolean;
  /** Return a not-yet-existing child (to create it) instead of null. */
  allowMissing?: boolean;
}

/**
 * Derives a child of an already checked directory for walkers (listing, archives, search, copy). Returns
 * null when the child is denied by rules/hiding, escapes through a symlink, or does not exist (unless
 * `allowMissing`).
 */
export async function scopedChild(
  parent: ScopedPath,
  name: string,
  hint: ChildHint = {},
): Promise<ScopedPath | null> {
  if (name === "" || name === "." || name === ".." || name.includes("/")) return null;
  const conf = parent.confinement;
  const vpath = joinVpath(parent.vpath, name);
  if (!isVisible(conf, vpath, hint)) return null;
  const path = joinVpath(parent.real, name);
  let resolution: Resolution;
  const lstat = hint.lstat ?? await lstatOrNull(path);
  if (lstat === null && !hint.allowMissing) return null;
  if (lstat === null || !lstat.isSymlink) {
    resolution = { path, real: path, lstat, stat: lstat };
  } else {
    try {
      resolution = await resolveIn(conf, vpathSegments(vpath));
    } catch (err) {
      if (err instanceof ForbiddenError) return null;
      throw err;
    }
    // A parent reached through a symlink resolves children from its target; keep the path we listed.
    resolution = { ...resolution, path };
  }
  const target = resolvedVpath(conf, vpath, resolution.real);
  // ignoreHidden spares dot-names in the walked tree, never a link's target (`link -> ../.secret` leaks bytes).
  if (target !== null && !isVisible(conf, target, lstat?.isSymlink ? {} : hint)) return null;
  return scoped(conf, resolution, vpath);
}

/**
 * The parent directory of a checked path, in the same confinement. The parent itself is *not* rule-checked
 * (a visible file may sit in a denied folder); anything derived from it goes through {@link scopedChild}.
 */
export async function scopedParent(p: ScopedPath): Promise<ScopedPath> {
  const vpath = vpathDir(p.vpath);
  return scoped(p.confinement, await resolveIn(p.confinement, vpathSegments(vpath)), vpath);
}

/**
 * A hidden temp sibling of a checked path (same folder, same confinement) for our own intermediate files.
 * Not rule-checked: nobody addresses it by name, and it is renamed onto `p` or removed.
 */
export function scopedTempSibling(p: ScopedPath, tempReal: string): ScopedPath {
  const vpath = joinVpath(vpathDir(p.vpath), tempReal.slice(tempReal.lastIndexOf("/") + 1));
  return scoped(p.confinement, { path: tempReal, real: tempReal, lstat: null, stat: null }, vpath);
}

/** True when the symlink at `vpath` resolves inside the confinement (always true when following external links). */
export async function isConfinedLink(conf: Confinement, vpath: string): Promise<boolean> {
  if (conf.followExternal) return true;
  try {
    await resolveConfined(conf.rootReal, vpathSegments(vpath));
    return true;
  } catch (err) {
    if (err instanceof ForbiddenError) return false;
    throw err;
  }
}
