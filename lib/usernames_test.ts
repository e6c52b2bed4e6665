import assert from "node:assert/strict";
import { HttpError } from "./errors.ts";
import { MAX_USERNAME_BYTES, normalizeUsername } from "./usernames.ts";

const REFUSED: [string, string, RegExp][] = [
  ["empty", "", /username is empty/],
  ["leading space", " bob", /start or end with whitespace/],
  ["trailing space", "bob ", /start or end with whitespace/],
  ["trailing tab", "bob\t", /start or end with whitespace/],
  ["trailing newline", "bob\n", /start or end with whitespace/],
  ["leading ideographic space", "\u3000bob", /start or end with whitespace/],
  ["NUL", "bo\u0000b", /U\+0000/],
  ["newline inside", "bo\nb", /U\+000A/],
  ["DEL", "bo\u007Fb", /U\+007F/],
  ["C1 control", "bo\u0085b", /U\+0085/],
  ["zero-width space", "bob\u200B", /U\+200B/],
  ["left-to-right mark", "\u200Ebob", /U\+200E/],
  ["right-to-left override", "ad\u202Emin", /U\+202E/],
  ["byte order mark", "b\uFEFFob", /U\+FEFF/],
  ["zero-width joiner", "bo\u200Db", /U\+200D/],
  ["word joiner", "bo\u2060b", /U\+2060/],
  ["soft hyphen", "bo\u00ADb", /U\+00AD/],
  ["tag character", "bob\u{E0041}", /U\+E0041/],
  ["variation selector", "bo\uFE0Fb", /U\+FE0F/],
  ["combining grapheme joiner", "bo\u034Fb", /U\+034F/],
  ["Hangul filler", "\u3164", /U\+3164/],
  ["Hangul half-width filler", "a\uFFA0", /U\+FFA0/],
  ["braille blank", "bob\u2800", /U\+2800/],
  ["no-break space inside", "bo\u00A0b", /U\+00A0/],
  ["em space inside", "bo\u2003b", /U\+2003/],
  ["line separator", "bo\u2028b", /U\+2028/],
  ["private use", "bo\uE000b", /U\+E000/],
  ["lone surrogate", "bo\uD800b", /U\+D800/],
  ["too long", "a".repeat(MAX_USERNAME_BYTES + 1), /too long/],
  ["too long in bytes", "é".repeat(MAX_USERNAME_BYTES / 2 + 1), /too long/],
];

for (const [what, name, message] of REFUSED) {
  Deno.test(`normalizeUsername() refuses a name with ${what}`, () => {
    assert.throws(() => normalizeUsername(name), (err: unknown) => {
      assert.ok(err instanceof HttpError);
      assert.equal(err.status, 400);
      assert.match(err.message, message);
      return true;
    });
  });
}

Deno.test("normalizeUsername() keeps ordinary names and returns the NFC form", () => {
  for (
    const name of [
      "bob",
      "Jean Luc",
      "o'brien",
      "用户",
      "Ωmega",
      "ana-maria_2",
      "a".repeat(MAX_USERNAME_BYTES),
    ]
  ) {
    assert.equal(normalizeUsername(name), name);
  }
  assert.equal(normalizeUsername("Zoe\u0301"), "Zo\u00E9");
  assert.equal(normalizeUsername("\u1100\u1161"), "\uAC00");
});
