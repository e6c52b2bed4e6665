import assert from "node:assert/strict";
import { hasHiddenSegment, isAllowedByRules, matchesRule } from "./rules.ts";
import { pathRule, regexRule } from "./_testing.ts";

Deno.test("matchesRule() matches path rules on whole segments", () => {
  const cases: [string, string, boolean][] = [
    ["/uploads", "/uploads", true],
    ["/uploads", "/uploads/file.txt", true],
    ["/uploads", "/uploads_backup/secret.txt", false],
    ["/", "/anything", true],
    ["/uploads/", "/uploads/file.txt", true],
    ["/uploads/", "/uploads_backup/file.txt", false],
    ["/data/shared", "/data/shared/docs/file.txt", true],
    ["/data/shared", "/data/shared_private/file.txt", false],
    ["/Secret.txt", "/secret.TXT", false],
    ["/a", "/ab", false],
    ["/a", "/a/b", true],
    ["", "/x", true],
  ];
  for (const [rule, path, want] of cases) {
    assert.equal(matchesRule(pathRule(rule), path), want, `${rule} ${path}`);
  }
});

Deno.test("matchesRule() folds case only when asked", () => {
  const fold = { foldCase: true };
  assert.ok(matchesRule(pathRule("/Secret.txt"), "/secret.TXT", fold));
  assert.ok(matchesRule(pathRule("/Private"), "/private/notes.txt", fold));
  assert.ok(matchesRule(pathRule("/uploads"), "/uploads", fold));
  assert.ok(!matchesRule(pathRule("/uploads"), "/UPLOADS_backup/secret.txt", fold));
  assert.ok(!matchesRule(pathRule("/data/shared"), "/data/SHARED_private/x", fold));
});

Deno.test("matchesRule() never folds regex rules; (?i) works", () => {
  for (const foldCase of [true, false]) {
    assert.ok(matchesRule(regexRule("^/Secret\\.txt$"), "/Secret.txt", { foldCase }));
    assert.ok(!matchesRule(regexRule("^/Secret\\.txt$"), "/secret.TXT", { foldCase }));
  }
  assert.ok(matchesRule(regexRule("(?i)^/Secret\\.txt$"), "/secret.TXT"));
  assert.ok(matchesRule(regexRule("\\.log"), "/var/x.log/y"), "unanchored search");
});

Deno.test("isAllowedByRules() lets the last match win, user rules after global ones", () => {
  const globalRules = [pathRule("/private")];
  assert.equal(isAllowedByRules("/private/a", { globalRules, userRules: [] }), false);
  assert.equal(
    isAllowedByRules("/private/a", { globalRules, userRules: [pathRule("/private/a", true)] }),
    true,
  );
  assert.equal(isAllowedByRules("/privateer", { globalRules, userRules: [] }), true);
  assert.equal(
    isAllowedByRules("/x", {
      globalRules: [pathRule("/", false), pathRule("/x", true)],
      userRules: [pathRule("/x")],
    }),
    false,
  );
});

Deno.test("isAllowedByRules() fails closed on a regex that does not compile", () => {
  assert.equal(isAllowedByRules("/a", { globalRules: [regexRule("(", true)], userRules: [] }), false);
  assert.equal(isAllowedByRules("/a", { globalRules: [regexRule("(", false)], userRules: [] }), false);
});

Deno.test("hasHiddenSegment() sees a dot-name on any segment (stricter than filebrowser)", () => {
  const cases: [string, boolean][] = [
    ["/", false],
    ["/src", false],
    ["/src/", false],
    ["/.circleci", true],
    ["/a/b/c/.docker.json", true],
    [".docker.json", true],
    ["Dockerfile", false],
    ["/Dockerfile", false],
    ["/.git/config", true],
    ["/a/.b/c", true],
    ["/a.b/c", false],
  ];
  for (const [path, want] of cases) assert.equal(hasHiddenSegment(path), want, path);
});

Deno.test("matchesRule() runs in linear time: a catastrophic-backtracking pattern on a 10,000-character path", () => {
  // With a backtracking engine this pattern takes seconds on a 30-character path and never ends on this one.
  const rule = regexRule("^/(\\w+\\s?)*$");
  const path = "/" + "a".repeat(9998) + "!";
  matchesRule(rule, "/warm-up");
  const t0 = performance.now();
  assert.equal(matchesRule(rule, path), false);
  assert.equal(matchesRule(rule, path.slice(0, -1)), true);
  const ms = performance.now() - t0;
  assert.ok(ms < 500, `took ${ms.toFixed(1)} ms`);
});

Deno.test("matchesRule() keeps Go's inline flags and RE2 semantics", () => {
  const cases: [string, string, boolean][] = [
    ["(?i)\\.PDF$", "/a/b.pdf", true],
    ["(?s)^/a.b$", "/a\nb", true],
    ["^/a.b$", "/a\nb", false],
    ["(?m)^b$", "/a\nb", true],
    ["^/a$", "/a\nb", false],
    ["(?U)^/a+", "/aaa", true],
    ["(?i:SECRET)/x", "/secret/x", true],
    ["\\p{Greek}", "/αβγ", true],
    ["(?P<name>[0-9]+)\\.log$", "/logs/2024.log", true],
    ["\\s", "/a\u00a0b", false],
  ];
  for (const [raw, path, want] of cases) {
    assert.equal(matchesRule(regexRule(raw), path), want, `${raw} ${path}`);
  }
});

Deno.test("isAllowedByRules() fails closed on patterns RE2 refuses (backreferences, lookarounds)", () => {
  for (const raw of ["(a)\\1", "^/(?=x)", "^/(?!x)", "(?<=a)b", "a++"]) {
    assert.equal(isAllowedByRules("/x", { globalRules: [regexRule(raw, true)], userRules: [] }), false, raw);
  }
});
