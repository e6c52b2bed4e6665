/**
 * What a confinement lets its user see: dot-file hiding and the global then the user's rules, on the lexical
 * vpath and, after a symlink, on the vpath where the entry really is. Pure string code, no disk access.
 */
import type { Confinement, ScopedPath } from "./gate.ts";
import { isSameOrInside } from "./path.ts";
import { hasHiddenSegment, hasRules, isAllowedByRules } from "./rules.ts";

/** The path the rules judge for `vpath`: the share's base (if any) plus the vpath. */
export function rulePathOf(conf: Confinement, vpath: string): string {
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
export function resolvedVpath(conf: Confinement, vpath: string, real: string): string | null {
  if (conf.followExternal) return null;
  const lexical = vpath === "/" ? conf.rootReal : conf.rootReal === "/" ? vpath : conf.rootReal + vpath;
  if (real === lexical || !isSameOrInside(conf.rootReal, real)) return null;
  return conf.rootReal === "/" ? real : real.slice(conf.rootReal.length) || "/";
}

/**
 * For walkers: the vpath where a checked folder really is when it was reached through a symlink, else null.
 * Children must then pass {@link isVisible} on `joinVpath(realVpathOf(dir), name)` as well.
 */
export function realVpathOf(p: ScopedPath): string | null {
  return resolvedVpath(p.confinement, p.vpath, p.real);
}
