import assert from "node:assert/strict";
import { BadRequestError } from "../errors.ts";
import { searchQueryFits } from "./grammar.ts";
import { matchesQuery, MAX_SEARCH_LENGTH, MAX_SEARCH_TERMS, parseSearchQuery } from "./query.ts";

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

Deno.test("parseSearchQuery() refuses more than 32 terms and filters or 500 characters with 400", () => {
  assert.equal(MAX_SEARCH_TERMS, 32);
  assert.equal(MAX_SEARCH_LENGTH, 500);
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
  assert.equal(parseSearchQuery(words(32)).terms.length, 32);
  assert.equal(parseSearchQuery("a".repeat(500)).terms[0].length, 500);
  const phrase = `"${words(100)}"`;
  assert.ok(phrase.length <= 500);
  assert.equal(parseSearchQuery(phrase).terms.length, 1, "a quoted phrase is one term");
  assert.equal(parseSearchQuery(`case:sensitive ${words(32)}`).terms.length, 32, "case: is no term");
  for (const raw of [words(33), `type:pdf ${words(32)}`, "a".repeat(501), words(6000)]) {
    assert.ok(!searchQueryFits(raw), raw.slice(0, 30));
    assert.throws(() => parseSearchQuery(raw), (err: unknown) => {
      assert.ok(err instanceof BadRequestError);
      assert.equal(err.status, 400);
      assert.equal(err.code, "search_too_long");
      return true;
    });
  }
});
