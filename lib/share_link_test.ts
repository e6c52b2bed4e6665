import assert from "node:assert/strict";
import { CUSTOM_LINK_MAX_LENGTH, defaultCustomLink, isValidCustomLink } from "./share_link.ts";

Deno.test("isValidCustomLink() accepts URL-safe links that start with a word character", () => {
  for (const ok of ["a", "my-link", "report_2024.pdf", "x~y", "a1"]) {
    assert.equal(isValidCustomLink(ok), true, ok);
  }
  assert.equal(isValidCustomLink("a".repeat(CUSTOM_LINK_MAX_LENGTH)), true);
});

Deno.test("isValidCustomLink() refuses hostile and malformed links", () => {
  const bad = [
    "",
    ".",
    "..",
    "-a",
    ".hidden",
    "a/b",
    "a\\b",
    "a b",
    "a?b",
    "a#b",
    "a%2e",
    " a",
    "a\n",
    "ä",
    "a".repeat(CUSTOM_LINK_MAX_LENGTH + 1),
  ];
  for (const link of bad) assert.equal(isValidCustomLink(link), false, JSON.stringify(link));
});

Deno.test("defaultCustomLink() proposes a valid link from an item name", () => {
  const cases: [string, string][] = [
    ["My File.txt", "My-File.txt"],
    ["  ..secret", "secret"],
    ["a/b?c#d", "a-b-c-d"],
    ["résumé.pdf", "r-sum-.pdf"],
  ];
  for (const [name, want] of cases) {
    assert.equal(defaultCustomLink(name), want, name);
    assert.equal(isValidCustomLink(want), true, want);
  }
  assert.equal(defaultCustomLink("x".repeat(300)).length, CUSTOM_LINK_MAX_LENGTH);
});
