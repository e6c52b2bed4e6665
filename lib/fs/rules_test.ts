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
