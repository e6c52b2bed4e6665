/**
 * Allow/deny rules and dot-file hiding (docs/security.md#the-path-gate). Pure functions over canonical vpaths
 * (no trailing slash), so the gate, walkers and tests share one matcher.
 */
import { compileRuleRegex, type RuleRegex } from "../settings.ts";
import type { Rule } from "../types.ts";
import { log } from "../log.ts";

/** Options of the rule matcher. */
export interface RuleMatchOptions {
  /** Compare non-regex rules case-insensitively (only on case-insensitive file systems). */
  foldCase?: boolean;
}

// Compiled rules by pattern (null: does not compile). Rules are few and shared by every request.
const regexCache = new Map<string, RuleRegex | null>();

function ruleRegex(raw: string): RuleRegex | null {
  let re = regexCache.get(raw);
  if (re === undefined) {
    try {
      re = compileRuleRegex(raw);
    } catch (err) {
      log.warn(
        `Cannot compile rule regex "${raw}" (${(err as Error).message}): treating it as denying everything`,
      );
      re = null;
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(raw, re);
  }
  return re;
}

/**
 * True when `rule` applies to `path`. Path rules match whole segments: `/a` matches `/a` and `/a/x`, never
 * `/ab`; an empty rule path or `/` matches everything. Regex rules are an unanchored search, never folded.
 */
export function matchesRule(rule: Rule, path: string, options: RuleMatchOptions = {}): boolean {
  if (rule.regex) {
    const re = ruleRegex(rule.regexp?.raw ?? "");
    // An uncompilable pattern matches everything; evaluateRules then fails closed (see there).
    return re === null ? true : re.test(path);
  }
  let base = rule.path;
  let target = path;
  if (options.foldCase) {
    base = base.toLowerCase();
    target = target.toLowerCase();
  }
  const prefix = base.endsWith("/") ? base : base + "/";
  return target === base || target.startsWith(prefix);
}

/** Rule lists evaluated for one path: global rules first, then the user's (last match wins). */
export interface RuleSet extends RuleMatchOptions {
  globalRules: readonly Rule[];
  userRules: readonly Rule[];
}

/** True when the rules allow `path` (last matching rule wins; a broken regex rule denies). */
export function isAllowedByRules(path: string, rules: RuleSet): boolean {
  let allow = true;
  for (const list of [rules.globalRules, rules.userRules]) {
    for (const rule of list) {
      if (!matchesRule(rule, path, rules)) continue;
      // Fail closed: a rule whose regex does not compile must never grant access.
      if (rule.regex && ruleRegex(rule.regexp?.raw ?? "") === null) return false;
      allow = rule.allow;
    }
  }
  return allow;
}

/** True when there is at least one rule to evaluate (recursive operations skip their subtree walk otherwise). */
export function hasRules(rules: RuleSet): boolean {
  return rules.globalRules.length > 0 || rules.userRules.length > 0;
}

/**
 * True when any segment of `path` starts with `.`. Deliberately stricter than upstream, which tests only
 * the last segment and so lets `/.git/config` through for users with hidden dot-files.
 */
export function hasHiddenSegment(path: string): boolean {
  return path.split("/").some((s) => s.startsWith("."));
}
