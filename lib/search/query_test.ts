import assert from "node:assert/strict";
import { matchesQuery, parseSearchQuery } from "./query.ts";

Deno.test("parseSearchQuery() reads case, type filters, phrases and terms", () => {
  assert.deepEqual(parseSearchQuery("Cat dog"), { caseSensitive: false, types: [], terms: ["cat", "dog"] });
  assert.deepEqual(parseSearchQuery("case:sensitive Cat"), {
    caseSensitive: true,
    types: [],
    terms: ["Cat"],
  });
  assert.deepEqual(parseSearchQuery('"two words"'), {
    caseSensitive: false,
    types: [],
    terms: ["two words"],
  });
  assert.deepEqual(parseSearchQuery("type:image type:pdf  holiday"), {
    caseSensitive: false,
    types: ["image", "pdf"],
    terms: ["holiday"],
  });
  assert.deepEqual(parseSearchQuery("a  b").terms, ["a", "b"], "double spaces make no empty term");
  assert.deepEqual(parseSearchQuery("case:insensitive").terms, []);
});

Deno.test("matchesQuery() combines any type condition with any term", () => {
  const q = parseSearchQuery("type:image type:audio cat");
  assert.ok(matchesQuery(q, "Cat.JPG"));
  assert.ok(matchesQuery(q, "cat.mp3"));
  assert.ok(!matchesQuery(q, "cat.txt"));
  assert.ok(!matchesQuery(q, "dog.jpg"));
  assert.ok(matchesQuery(parseSearchQuery("type:pdf"), "a.pdf"));
  assert.ok(!matchesQuery(parseSearchQuery("type:pdf"), "a.PDF"), "extension types are case-sensitive");
  assert.ok(matchesQuery(parseSearchQuery("type:video"), "a.webm"));
  assert.ok(!matchesQuery(parseSearchQuery("case:sensitive Cat"), "cat.jpg"));
  assert.ok(matchesQuery(parseSearchQuery(""), "anything"));
});
