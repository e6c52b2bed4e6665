/** Every locale has every key of en.json (with the plural forms its language needs); code uses only known keys. */
import assert from "node:assert/strict";
import { createTranslator, LOCALES, pluralCategories, requiredKeys } from "../lib/i18n.ts";
import type { Strings } from "../lib/i18n.ts";

const DIR = new URL("../locales/", import.meta.url);
const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;
const PLURAL = /_(zero|one|two|few|many|other)$/;

async function load(code: string): Promise<Strings> {
  return JSON.parse(await Deno.readTextFile(new URL(`${code}.json`, DIR)));
}

function placeholders(text: string): Set<string> {
  return new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]));
}

Deno.test("locales: there is one file per locale and no other", async () => {
  const files: string[] = [];
  for await (const e of Deno.readDir(DIR)) if (e.name.endsWith(".json")) files.push(e.name.slice(0, -5));
  assert.deepEqual(files.sort(), [...LOCALES].sort());
});

Deno.test("locales: every locale has every key of en.json, nothing else, all non-empty strings", async () => {
  const en = await load("en");
  for (const code of LOCALES) {
    const strings = await load(code);
    const required = requiredKeys(en, code);
    const missing = required.filter((k) => !(k in strings));
    assert.deepEqual(missing, [], `${code}.json lacks keys`);
    const extra = Object.keys(strings).filter((k) => !required.includes(k));
    assert.deepEqual(extra, [], `${code}.json has keys en.json does not`);
    for (const [k, v] of Object.entries(strings)) {
      assert.equal(typeof v, "string", `${code}: ${k}`);
      assert.ok(v.trim() !== "", `${code}: ${k} is empty`);
    }
  }
});

Deno.test("locales: translations keep the placeholders of the English text", async () => {
  const en = await load("en");
  for (const code of LOCALES) {
    const strings = await load(code);
    for (const [key, text] of Object.entries(strings)) {
      const base = PLURAL.test(key) ? en[key.replace(PLURAL, "_other")] : en[key];
      const want = placeholders(base);
      const got = placeholders(text);
      for (const p of got) assert.ok(want.has(p), `${code}: ${key} uses an unknown placeholder {{${p}}}`);
      // Plural forms may spell the number out ("one item"); every other text keeps all placeholders.
      if (!PLURAL.test(key)) {
        for (const p of want) assert.ok(got.has(p), `${code}: ${key} lost the placeholder {{${p}}}`);
      }
    }
  }
});

Deno.test("locales: plural keys resolve in every locale for 0, 1, 2, 5 and 11", async () => {
  const en = await load("en");
  const bases = [...new Set(Object.keys(en).filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, "")))];
  assert.ok(bases.length > 0);
  for (const code of LOCALES) {
    const t = createTranslator(code, await load(code)).t;
    for (const base of bases) {
      for (const count of [0, 1, 2, 5, 11]) {
        const text = t(base, { count, bytes: String(count) });
        assert.notEqual(
          text,
          base,
          `${code}: ${base} with count ${count} (${pluralCategories(code).join(",")})`,
        );
      }
    }
  }
});

Deno.test("locales: every key the code uses literally exists in en.json", async () => {
  const en = await load("en");
  const bases = new Set(Object.keys(en).map((k) => k.replace(PLURAL, "")));
  const used = new Map<string, string>();
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (/\.tsx?$/.test(e.name) && !/_test\.tsx?$/.test(e.name)) {
        const text = await Deno.readTextFile(path);
        for (const m of text.matchAll(/\bt\(\s*"([\w.-]+)"|labelKey:\s*"([\w.-]+)"/g)) {
          used.set(m[1] ?? m[2], path);
        }
      }
    }
  };
  for (const dir of ["islands", "components", "client", "routes"]) {
    await walk(new URL(`../${dir}`, import.meta.url).pathname);
  }
  assert.ok(used.size > 50, "the scan found the keys");
  const unknown = [...used].filter(([k]) => !bases.has(k)).map(([k, file]) => `${k} (${file})`);
  assert.deepEqual(unknown, []);
});

Deno.test("locales: Arabic is fully translated (no English text left)", async () => {
  const en = await load("en");
  const ar = await load("ar");
  // Texts that are the same in every language (product names, format names).
  const universal = new Set(["search.pdf"]);
  const same = Object.keys(en).filter((k) => !universal.has(k) && ar[k] === en[k]);
  assert.deepEqual(same, []);
});
