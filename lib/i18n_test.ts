import assert from "node:assert/strict";
import {
  createTranslator,
  intlTag,
  isRtl,
  matchLocale,
  parseAcceptLanguage,
  pickLocale,
  pluralCategories,
  requiredKeys,
} from "./i18n.ts";

Deno.test("matchLocale() maps browser tags to the shipped locales (zh → zh-cn, uk → ua)", () => {
  assert.equal(matchLocale("zh"), "zh-cn");
  assert.equal(matchLocale("zh-TW"), "zh-tw");
  assert.equal(matchLocale("zh-Hant-HK"), "zh-tw");
  assert.equal(matchLocale("pt-BR"), "pt-br");
  assert.equal(matchLocale("pt-PT"), "pt");
  assert.equal(matchLocale("nl"), "nl-be");
  assert.equal(matchLocale("sv-SE"), "sv-se");
  assert.equal(matchLocale("uk-UA"), "ua");
  assert.equal(matchLocale("en-US"), "en");
  assert.equal(matchLocale("de_AT"), "de");
  assert.equal(matchLocale("xx"), null);
  assert.equal(matchLocale(""), null);
});

Deno.test("pickLocale() prefers the user's locale, then the browser's languages, then English", () => {
  assert.equal(pickLocale("fr", ["de"]), "fr");
  assert.equal(pickLocale("", ["xx", "de-CH", "fr"]), "de");
  assert.equal(pickLocale(undefined, []), "en");
  assert.equal(pickLocale("nonsense", ["ja"]), "ja");
});

Deno.test("parseAcceptLanguage() orders by quality and drops q=0 and *", () => {
  assert.deepEqual(parseAcceptLanguage("fr;q=0.5, de-CH, en;q=0.8, *;q=0.1, it;q=0"), ["de-CH", "en", "fr"]);
  assert.deepEqual(parseAcceptLanguage(null), []);
});

Deno.test("isRtl() and intlTag() know Arabic/Hebrew and Ukrainian's tag", () => {
  assert.ok(isRtl("ar") && isRtl("he") && !isRtl("en"));
  assert.equal(intlTag("ua"), "uk");
  assert.equal(intlTag("pt-br"), "pt-BR");
});

Deno.test("createTranslator() interpolates, pluralises per language and shows unknown keys", () => {
  const en = createTranslator("en", {
    "a.b": "Hi {{name}} & co",
    "n_one": "{{count}} file",
    "n_other": "{{count}} files",
  });
  assert.equal(en.t("a.b", { name: "<x>" }), "Hi <x> & co");
  assert.equal(en.t("n", { count: 1 }), "1 file");
  assert.equal(en.t("n", { count: 3 }), "3 files");
  assert.equal(en.t("missing.key"), "missing.key");
  const ar = createTranslator("ar", {
    "n_zero": "0",
    "n_one": "1",
    "n_two": "2",
    "n_few": "f",
    "n_many": "m",
    "n_other": "o",
  });
  assert.deepEqual([0, 1, 2, 5, 11, 100].map((count) => ar.t("n", { count })), [
    "0",
    "1",
    "2",
    "f",
    "m",
    "o",
  ]);
  const de = createTranslator("de", { x: "x" }, { y: "fallback" });
  assert.equal(de.t("y"), "fallback");
});

Deno.test("requiredKeys() expands plural keys to each language's categories", () => {
  const en = { plain: "p", "n_one": "1", "n_other": "n" };
  assert.deepEqual(requiredKeys(en, "ja"), ["n_other", "plain"]);
  assert.deepEqual(requiredKeys(en, "ru"), ["n_few", "n_many", "n_one", "n_other", "plain"]);
  assert.equal(pluralCategories("ar").length, 6);
});
