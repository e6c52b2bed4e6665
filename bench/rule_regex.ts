/**
 * Regex rule benchmark: a backtracking-prone rule (`^/(\w+\s?)*$`) against growing paths that almost match,
 * with JavaScript's RegExp (backtracking, what rules used before) and RE2 (re2js, what they use now).
 * Run: deno run -A bench/rule_regex.ts. RegExp stops at 26 characters: every extra one doubles its time.
 */
import { compileRuleRegex } from "../lib/settings.ts";

const PATTERN = "^/(\\w+\\s?)*$";
const re2 = compileRuleRegex(PATTERN);
const js = new RegExp(PATTERN);

function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

const rows: string[] = [];
for (const n of [16, 20, 22, 24, 26, 30, 1_000, 10_000, 100_000]) {
  const path = "/" + "a".repeat(n - 2) + "!";
  const jsMs = n <= 26 ? time(() => js.test(path)).toFixed(1) : "-";
  const re2Ms = time(() => re2.test(path)).toFixed(2);
  rows.push(`${String(n).padStart(7)} chars  RegExp ${jsMs.padStart(8)} ms  RE2 ${re2Ms.padStart(7)} ms`);
}
// deno-lint-ignore no-console -- a benchmark prints its table
console.log(rows.join("\n"));
