/** Server-side loading of `locales/<code>.json`, cached, and one translator per locale. */
import { createTranslator, DEFAULT_LOCALE, isLocale } from "./i18n.ts";
import type { Locale, Strings, Translator } from "./i18n.ts";

const DIR = new URL("../locales/", import.meta.url);
const strings = new Map<Locale, Strings>();
const translators = new Map<Locale, Translator>();

/** The strings of one locale (read once; a missing or broken file yields the English strings). */
export function loadStrings(locale: Locale): Strings {
  let s = strings.get(locale);
  if (!s) {
    const code = isLocale(locale) ? locale : DEFAULT_LOCALE;
    // floor-exempt: the project's own locale files.
    s = JSON.parse(Deno.readTextFileSync(new URL(`${code}.json`, DIR))) as Strings;
    strings.set(locale, s);
  }
  return s;
}

/** A cached translator for a locale, with English as fallback for missing keys. */
export function translatorFor(locale: Locale): Translator {
  let t = translators.get(locale);
  if (!t) {
    t = createTranslator(
      locale,
      loadStrings(locale),
      locale === DEFAULT_LOCALE ? undefined : loadStrings("en"),
    );
    translators.set(locale, t);
  }
  return t;
}
