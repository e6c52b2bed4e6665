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
import type { Permission, Rule, StoredUser } from "../types.ts";
import { isCaseInsensitive } from "./case_probe.ts";
import { cleanAbsolute, isInsideDir, type Resolution, resolveConfined, resolveLexical } from "./confine.ts";
import { cleanVpath, joinVpath, vpathSegments } from "./path.ts";
import { hasHiddenSegment, hasRules, isAllowedByRules, type RuleSet } from "./rules.ts";
import { assertNewNames, assertPathFits, isCreating } from "./path_limits.ts";

/** What the gate needs to know about the request. */
export interface GateContext {
  /** Absolute server root; the user's scope is resolved beneath it. */
  root: string;
  user: Pick<StoredUser, "scope" | "perm" | "rules" | "hideDotfiles">;
  /** `settings.rules`, evaluated before the user's rules. */
  globalRules: readonly Rule[];
  /** Unsafe mode: follow symlinks wherever they point (lexical confinement only). */
  followExternalSymlinks: boolean;
  /** Compare non-regex rules case-insensitively; default: probed once on `root` (case-insensitive file systems). */
  foldCase?: boolean;
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
export function scopeDirOf(ctx: Pick<GateContext, "root" | "user">): string {
  return cleanAbsolute(`${ctx.root}/${cleanVpath("/" + ctx.user.scope).path}`);
}

const rootCache = new WeakMap<GateContext, Promise<Confinement>>();
const foldCache = new Map<string, Promise<boolean>>();

/** Whether path rules fold case under `root`: probed once per server root. */
function foldCaseFor(root: string): Promise<boolean> {
  let p = foldCache.get(root);
  if (!p) {
    p = isCaseInsensitive(root);
    foldCache.set(root, p);
  }
  return p;
}

async function confinementOf(ctx: GateContext): Promise<Confinement> {
  let lexical = scopeDirOf(ctx);
  const ruleBase = ctx.base ? cleanVpath(ctx.base).path : "";
  if (ruleBase && ruleBase !== "/") lexical = cleanAbsolute(`${lexical}/${ruleBase}`);
  let rootReal: string;
  try {
    rootReal = ctx.followExternalSymlinks ? lexical : await Deno.realPath(lexical);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new NotFoundError("scope_missing", undefined, { cause: err });
    }
    throw err;
  }
  if (ruleBase && !ctx.followExternalSymlinks) {
    // The shared directory itself must still be inside the owner's scope.
    const scopeReal = await Deno.realPath(scopeDirOf(ctx));
    if (!isInsideDir(scopeReal, rootReal)) throw new ForbiddenError("symlink_escape");
  }
  return {
    rootReal,
    ruleBase: ruleBase === "/" ? "" : ruleBase,
    rules: {
      globalRules: ctx.globalRules,
      userRules: ctx.user.rules,
      foldCase: ctx.foldCase ?? await foldCaseFor(ctx.root),
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

function rulePathOf(conf: Confinement, vpath: string): string {
  if (!conf.ruleBase) return vpath;
  return vpath === "/" ? conf.ruleBase : conf.ruleBase + vpath;
}

/** True when the rules and dot-file hiding let this confinement see `vpath` (no disk access). */
export function isVisible(
  conf: Confinement,
  vpath: string,
  options: { ignoreHidden?: boolean } = {},
): boolean {
  const rulePath = rulePathOf(conf, vpath);
  if (!options.ignoreHidden && conf.hideDotfiles && hasHiddenSegment(rulePath)) return false;
  return isAllowedByRules(rulePath, conf.rules);
}

/** How the children of one directory fare under {@link isVisible}, prepared once per listing. */
export interface ChildVisibility {
  /** No child is visible (the directory part itself is hidden). */
  none: boolean;
  /** Names starting with `.` are hidden. */
  hideDots: boolean;
  /** The rules' verdict for a child's name; null when there are no rules (everything allowed). */
  allowed: ((name: string) => boolean) | null;
}

/**
 * {@link isVisible} for the children of `dirVpath`: a child is visible iff `!none`, not (`hideDots` and a
 * dot name) and `allowed` (if any) says so; exactly `isVisible(conf, joinVpath(dirVpath, name))`.
 */
export function childVisibility(conf: Confinement, dirVpath: string): ChildVisibility {
  // rulePathOf() of any child: the share's base (if any) + the child's vpath.
  const prefix = conf.ruleBase + (dirVpath === "/" ? "/" : dirVpath + "/");
  const rules = conf.rules;
  return {
    // The hidden check is per segment: a child is hidden when the directory part is or its own name is.
    none: conf.hideDotfiles && hasHiddenSegment(prefix),
    hideDots: conf.hideDotfiles,
    allowed: hasRules(rules) ? (name) => isAllowedByRules(prefix + name, rules) : null,
  };
}

/**
 * When a symlink was followed, the vpath of where the entry really is; null when no link was involved (or
 * in followExternal mode, where targets may be anywhere). Rules and hiding are checked on this path too, so
 * an in-scope link cannot open a folder that a rule denies (upstream checks only the lexical path).
 */
function resolvedVpath(conf: Confinement, vpath: string, real: string): string | null {
  if (conf.followExternal) return null;
  const lexical = vpath === "/" ? conf.rootReal : conf.rootReal === "/" ? vpath : conf.rootReal + vpath;
  if (real === lexical || !isInsideDir(conf.rootReal, real)) return null;
  return conf.rootReal === "/" ? real : real.slice(conf.rootReal.length) || "/";
}

/**
 * For walkers: the vpath where a checked folder really is when it was reached through a symlink, else null.
 * Children must then pass {@link isVisible} on `joinVpath(realVpathOf(dir), name)` as well.
 */
export function realVpathOf(p: ScopedPath): string | null {
  return resolvedVpath(p.confinement, p.vpath, p.real);
}

function brand(fields: Omit<ScopedPath, typeof SCOPED>): ScopedPath {
  return fields as ScopedPath;
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
  const clean = cleanVpath(vpath);
  const conf = await getConfinement(ctx);
  assertPathFits(conf.rootReal, clean.path);
  const rulePath = rulePathOf(conf, clean.path);
  if (conf.hideDotfiles && hasHiddenSegment(rulePath)) throw new ForbiddenError("hidden", "Path is hidden");
  if (!isAllowedByRules(rulePath, conf.rules)) {
    throw new ForbiddenError("rule_denied", "Path is denied by a rule");
  }
  const segments = vpathSegments(clean.path);
  const resolution = conf.followExternal
    ? await resolveLexical(conf.rootReal, segments)
    : await resolveConfined(conf.rootReal, segments);
  const target = resolvedVpath(conf, clean.path, resolution.real);
  if (target !== null && !isVisible(conf, target)) {
    throw new ForbiddenError("rule_denied", "Path resolves to a denied or hidden path");
  }
  // What an operation creates must stay addressable: no control characters or separators in new names.
  if (resolution.lstat === null && isCreating(need)) await assertNewNames(conf.rootReal, segments);
  return brand({
    ...resolution,
    vpath: clean.path,
    trailingSlash: clean.trailingSlash,
    rulePath,
    confinement: conf,
  });
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
  const path = parent.real === "/" ? `/${name}` : `${parent.real}/${name}`;
  let resolution: Resolution;
  const lstat = hint.lstat ?? await lstatOrNull(path);
  if (lstat === null && !hint.allowMissing) return null;
  if (lstat === null || !lstat.isSymlink) {
    resolution = { path, real: path, lstat, stat: lstat };
  } else {
    try {
      resolution = conf.followExternal
        ? await resolveLexical(conf.rootReal, vpathSegments(vpath))
        : await resolveConfined(conf.rootReal, vpathSegments(vpath));
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
  return brand({
    ...resolution,
    vpath,
    trailingSlash: false,
    rulePath: rulePathOf(conf, vpath),
    confinement: conf,
  });
}

/** Synchronous variant of {@link scopedChild} for non-symlink entries (fast listings); null for links. */
export function scopedPlainChild(parent: ScopedPath, name: string, lstat: Deno.FileInfo): ScopedPath | null {
  if (lstat.isSymlink) return null;
  const conf = parent.confinement;
  const vpath = joinVpath(parent.vpath, name);
  if (!isVisible(conf, vpath)) return null;
  const path = parent.real === "/" ? `/${name}` : `${parent.real}/${name}`;
  const target = resolvedVpath(conf, vpath, path);
  if (target !== null && !isVisible(conf, target)) return null;
  return brand({
    path,
    real: path,
    lstat,
    stat: lstat,
    vpath,
    trailingSlash: false,
    rulePath: rulePathOf(conf, vpath),
    confinement: conf,
  });
}

/** Re-reads the disk state of a ScopedPath (after a write), keeping its confinement. */
export async function refreshScoped(p: ScopedPath): Promise<ScopedPath> {
  const conf = p.confinement;
  const segments = vpathSegments(p.vpath);
  const resolution = conf.followExternal
    ? await resolveLexical(conf.rootReal, segments)
    : await resolveConfined(conf.rootReal, segments);
  return brand({ ...p, ...resolution });
}

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return null;
    throw err;
  }
}

/**
 * The parent directory of a checked path, in the same confinement. The parent itself is *not* rule-checked
 * (a visible file may sit in a denied folder); anything derived from it goes through {@link scopedChild}.
 */
export async function scopedParent(p: ScopedPath): Promise<ScopedPath> {
  const conf = p.confinement;
  const segments = vpathSegments(p.vpath).slice(0, -1);
  const resolution = conf.followExternal
    ? await resolveLexical(conf.rootReal, segments)
    : await resolveConfined(conf.rootReal, segments);
  const vpath = "/" + segments.join("/");
  return brand({
    ...resolution,
    vpath,
    trailingSlash: false,
    rulePath: rulePathOf(conf, vpath),
    confinement: conf,
  });
}

/**
 * A hidden temp sibling of a checked path (same folder, same confinement) for our own intermediate files.
 * Not rule-checked: nobody addresses it by name, and it is renamed onto `p` or removed.
 */
export function scopedTempSibling(p: ScopedPath, tempReal: string): ScopedPath {
  const name = tempReal.slice(tempReal.lastIndexOf("/") + 1);
  const dir = p.vpath.slice(0, p.vpath.lastIndexOf("/")) || "/";
  const vpath = joinVpath(dir, name);
  return brand({
    path: tempReal,
    real: tempReal,
    lstat: null,
    stat: null,
    vpath,
    trailingSlash: false,
    rulePath: rulePathOf(p.confinement, vpath),
    confinement: p.confinement,
  });
}

/**
 * Confinement without the rule check, for walk bases (search) whose entries are each judged by
 * {@link isVisible}. Symlinks are still resolved and refused when they escape.
 */
export async function resolveWalkBase(ctx: GateContext, vpath: string): Promise<ScopedPath> {
  const clean = cleanVpath(vpath);
  const conf = await getConfinement(ctx);
  assertPathFits(conf.rootReal, clean.path);
  const segments = vpathSegments(clean.path);
  const resolution = conf.followExternal
    ? await resolveLexical(conf.rootReal, segments)
    : await resolveConfined(conf.rootReal, segments);
  return brand({
    ...resolution,
    vpath: clean.path,
    trailingSlash: clean.trailingSlash,
    rulePath: rulePathOf(conf, clean.path),
    confinement: conf,
  });
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
