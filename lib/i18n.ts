// This module is browser-compatible.
/**
 * Locales and translation: filebrowser's 23 locale codes, locale detection from the user's setting or
 * the browser's languages, right-to-left detection and a small `t()` built on i18next with flat dotted keys.
 */
import i18next from "i18next";

/** The locale codes the interface ships, as used in user records and `locales/<code>.json`. */
export const LOCALES = [
  "he",
  "hu",
  "ar",
  "de",
  "en",
  "es",
  "fr",
  "is",
  "it",
  "ja",
  "ko",
  "nl-be",
  "pl",
  "pt",
  "pt-br",
  "ro",
  "ru",
  "sk",
  "sv-se",
  "tr",
  "ua",
  "zh-cn",
  "zh-tw",
] as const;

/** One of the shipped locale codes. */
export type Locale = typeof LOCALES[number];

/** The fallback locale. */
export const DEFAULT_LOCALE: Locale = "en";

/** Translated strings of one locale: flat dotted keys to text with `{{name}}` placeholders. */
export type Strings = Record<string, string>;

/** Native names of the locales, for language pickers. */
export const LOCALE_NAMES: Record<Locale, string> = {
  he: "עברית",
  hu: "Magyar",
  ar: "العربية",
  de: "Deutsch",
  en: "English",
  es: "Español",
  fr: "Français",
  is: "Íslenska",
  it: "Italiano",
  ja: "日本語",
  ko: "한국어",
  "nl-be": "Nederlands (België)",
  pl: "Polski",
  pt: "Português",
  "pt-br": "Português (Brasil)",
  ro: "Română",
  ru: "Русский",
  sk: "Slovenčina",
  "sv-se": "Svenska",
  tr: "Türkçe",
  ua: "Українська",
  "zh-cn": "简体中文",
  "zh-tw": "繁體中文",
};

/** True when the code is one of the shipped locales. */
export function isLocale(code: string): code is Locale {
  return (LOCALES as readonly string[]).includes(code);
}

/** True for right-to-left locales (Arabic and Hebrew). */
export function isRtl(locale: string): boolean {
  return locale === "ar" || locale === "he";
}

/** The BCP 47 tag of a locale for Intl APIs (`ua` is Ukrainian, `uk`). */
export function intlTag(locale: string): string {
  if (locale === "ua") return "uk";
  const [lang, region] = locale.split("-");
  return region ? `${lang}-${region.toUpperCase()}` : lang;
}

/** Maps a language tag (a user setting or a browser language like `pt-BR`, `zh`, `uk-UA`) to a locale, or null. */
export function matchLocale(tag: string): Locale | null {
  const t = tag.trim().toLowerCase().replace(/_/g, "-");
  if (!t) return null;
  if (isLocale(t)) return t;
  const [lang, ...rest] = t.split("-");
  const region = rest.find((r) => r.length === 2) ?? "";
  switch (lang) {
    case "zh":
      // A zh language without region (or with a Simplified script) maps to zh-cn; Traditional regions to zh-tw.
      return rest.includes("hant") || ["tw", "hk", "mo"].includes(region) ? "zh-tw" : "zh-cn";
    case "pt":
      return region === "br" ? "pt-br" : "pt";
    case "nl":
      return "nl-be";
    case "sv":
      return "sv-se";
    case "uk":
    case "ua":
      return "ua";
    case "iw":
      return "he";
  }
  return isLocale(lang) ? lang : null;
}

/** Parses an Accept-Language header into tags, best first. */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header.split(",")
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) || 0 : 1, i };
    })
    .filter((x) => x.tag && x.tag !== "*" && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((x) => x.tag);
}

/** The locale to use: the user's own setting, else the first supported browser language, else English. */
export function pickLocale(
  userLocale: string | null | undefined,
  browserLanguages: readonly string[],
): Locale {
  const own = userLocale ? matchLocale(userLocale) : null;
  if (own) return own;
  for (const tag of browserLanguages) {
    const m = matchLocale(tag);
    if (m) return m;
  }
  return DEFAULT_LOCALE;
}

/** Variables for interpolation; `count` also selects plural forms (`key_one`, `key_other`, ...). */
export type TranslateVars = Record<string, string | number>;

/** A translation function bound to one locale. */
export interface Translator {
  locale: Locale;
  /** Translates a key; unknown keys come back as the key itself, so a missing text is visible, not blank. */
  t(key: string, vars?: TranslateVars): string;
}

/** Builds a translator for one locale; `fallback` (usually English) fills keys the locale lacks. */
export function createTranslator(locale: Locale, strings: Strings, fallback?: Strings): Translator {
  const lng = intlTag(locale);
  const instance = i18next.createInstance();
  const resources: Record<string, { translation: Strings }> = { [lng]: { translation: strings } };
  if (fallback && lng !== "en") resources.en = { translation: fallback };
  instance.init({
    lng,
    fallbackLng: fallback ? "en" : false,
    resources,
    initAsync: false,
    // Keys are flat dotted names ("files.delete.confirm"), not nested objects.
    keySeparator: false,
    nsSeparator: false,
    // Preact escapes text itself; escaping here would show "&amp;" in names.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return { locale, t: (key, vars) => instance.t(key, vars ?? {}) as string };
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** The plural categories a locale needs (`one`, `other`; Arabic also `zero`, `two`, `few`, `many`). */
export function pluralCategories(locale: string): string[] {
  return new Intl.PluralRules(intlTag(locale)).resolvedOptions().pluralCategories as string[];
}

/**
 * The keys a locale file must have, given the English strings: every plain key, and for every plural key
 * (`x_one`/`x_other` in English) one `x_<category>` per plural category of the locale.
 */
export function requiredKeys(en: Strings, locale: string): string[] {
  const out = new Set<string>();
  const categories = pluralCategories(locale);
  for (const key of Object.keys(en)) {
    if (!PLURAL_SUFFIX.test(key)) out.add(key);
    else for (const c of categories) out.add(key.replace(PLURAL_SUFFIX, `_${c}`));
  }
  return [...out].sort();
}

/** The English text that stands in for a missing key (`x_few` takes English `x_other`). */
export function englishFallback(en: Strings, key: string): string | undefined {
  if (key in en) return en[key];
  return PLURAL_SUFFIX.test(key) ? en[key.replace(PLURAL_SUFFIX, "_other")] : undefined;
}
