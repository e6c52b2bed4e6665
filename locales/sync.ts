/**
 * Adds to every locale file the keys of en.json it lacks, with the English text as a stand-in for the translators
 * (plural keys get the forms each language needs), drops keys en.json no longer has, and sorts the keys.
 * Run: `deno run -A locales/sync.ts`. tests/locales_test.ts fails until every file has every key.
 */
import { englishFallback, LOCALES, requiredKeys } from "../lib/i18n.ts";
import type { Strings } from "../lib/i18n.ts";

const dir = new URL("./", import.meta.url);
const en = JSON.parse(await Deno.readTextFile(new URL("en.json", dir))) as Strings;
for (const code of LOCALES) {
  if (code === "en") continue;
  const file = new URL(`${code}.json`, dir);
  const current = JSON.parse(await Deno.readTextFile(file).catch(() => "{}")) as Strings;
  const next: Strings = {};
  for (const key of requiredKeys(en, code)) next[key] = current[key] ?? englishFallback(en, key) ?? "";
  await Deno.writeTextFile(file, JSON.stringify(next, null, 2) + "\n");
}
