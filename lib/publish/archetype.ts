// This module is browser-compatible.
/**
 * Hugo archetypes: expansion of the template actions archetypes use, slugs of post titles and the built-in default
 * archetype. The subset: `.Name`, `.File.ContentBaseName`, `.Date`, `.Site.Title`, `.Section`, `.Type`, `now`,
 * `.Format "layout"` on dates, string literals, pipes, and the functions `replace`, `title`, `lower`, `upper`,
 * `humanize`, `urlize`. Any other action (`if`, `range`, ...) is left as it is for the author to finish.
 */
import type { FrontMatterFormat } from "../types.ts";

/** What an archetype's actions can refer to. */
export interface ArchetypeContext {
  /** The post's file name without extension (the slug). */
  name: string;
  /** Creation date, ISO 8601 with offset (`2031-05-04T09:30:00+02:00`). */
  date: string;
  /** The site title (Hugo config), "" if unknown. */
  siteTitle: string;
  /** The section path below the content folder ("" at its top). */
  section: string;
}

/** Hugo's built-in default archetype, per front-matter format. */
export const BUILTIN_ARCHETYPES: Record<FrontMatterFormat, string> = {
  yaml:
    '---\ntitle: \'{{ replace .File.ContentBaseName "-" " " | title }}\'\ndate: {{ .Date }}\ndraft: true\n---\n',
  toml:
    '+++\ntitle = \'{{ replace .File.ContentBaseName "-" " " | title }}\'\ndate = {{ .Date }}\ndraft = true\n+++\n',
  json: '{\n  "title": "{{ replace .File.ContentBaseName "-" " " | title }}",\n  "date": "{{ .Date }}",\n' +
    '  "draft": true\n}\n',
};

/** Longest slug, in characters. */
export const MAX_SLUG_LENGTH = 80;

/** The file name (without `.md`) of a post title: lower case, accents dropped, runs of other characters → `-`. */
export function slugify(title: string): string {
  const slug = title.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
  return Array.from(slug).slice(0, MAX_SLUG_LENGTH).join("").replace(/-+$/, "");
}

// AP style, Hugo's default `titleCaseStyle`: short articles, conjunctions and prepositions stay lower case.
const SMALL_WORDS = new Set("a an and as at but by for in nor of on or so the to up yet".split(" "));

/** Hugo's `title`: words capitalised, short function words in lower case except first and last. */
export function titleCase(text: string): string {
  const words = text.split(/(\s+)/);
  const last = words.length - 1;
  return words.map((w, i) => {
    if (i !== 0 && i !== last && SMALL_WORDS.has(w.toLowerCase())) return w.toLowerCase();
    return w.charAt(0).toUpperCase() + w.slice(1);
  }).join("");
}

/** Formats an ISO date (with offset) with a Go time layout (`2006-01-02`, `15:04`, `-07:00`, ...). */
export function formatGoLayout(iso: string, layout: string): string {
  const m = iso.match(/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  if (!m) return iso;
  const [, y, mo, d, h, mi, s = "00", zone] = m;
  const offset = zone === "Z" ? "+00:00" : zone;
  const tokens: Record<string, string> = {
    "2006": y,
    "01": mo,
    "02": d,
    "15": h,
    "04": mi,
    "05": s,
    "-07:00": offset,
    "-0700": offset.replace(":", ""),
    "Z07:00": zone === "Z" ? "Z" : offset,
  };
  return layout.replace(/Z07:00|-07:00|-0700|2006|01|02|15|04|05/g, (t) => tokens[t]);
}

type Value = string;

function field(ref: string, ctx: ArchetypeContext): Value | null {
  switch (ref) {
    case ".Name":
    case ".File.ContentBaseName":
    case ".File.BaseFileName":
    case ".File.TranslationBaseName":
      return ctx.name;
    case ".Date":
    case ".PublishDate":
    case ".Lastmod":
    case "now":
      return ctx.date;
    case ".Site.Title":
      return ctx.siteTitle;
    case ".Section":
    case ".Type":
      return ctx.section.split("/")[0] || "page";
    case ".Kind":
      return "page";
  }
  return null;
}

const FUNCTIONS: Record<string, { arity: number; run: (args: string[]) => string }> = {
  replace: { arity: 3, run: ([s, from, to]) => from === "" ? s : s.split(from).join(to) },
  title: { arity: 1, run: ([s]) => titleCase(s) },
  lower: { arity: 1, run: ([s]) => s.toLowerCase() },
  upper: { arity: 1, run: ([s]) => s.toUpperCase() },
  humanize: {
    arity: 1,
    run: ([s]) => {
      const text = s.replace(/[-_]+/g, " ").trim();
      return text.charAt(0).toUpperCase() + text.slice(1);
    },
  },
  urlize: { arity: 1, run: ([s]) => slugify(s) },
};

// Splits a command into words, keeping string literals whole.
function words(command: string): string[] | null {
  const out = command.match(/"(?:\\.|[^"\\])*"|`[^`]*`|[^\s"`]+/g) ?? [];
  return out.join(" ").length > command.replace(/\s+/g, " ").trim().length ? null : out;
}

function operand(word: string, ctx: ArchetypeContext): Value | null {
  if (word.startsWith("`")) return word.slice(1, -1);
  if (word.startsWith('"')) {
    try {
      return JSON.parse(word) as string;
    } catch {
      return null;
    }
  }
  return field(word, ctx);
}

function command(text: string, piped: Value | null, ctx: ArchetypeContext): Value | null {
  const w = words(text.trim());
  if (!w || w.length === 0) return null;
  const [head, ...rest] = w;
  const method = head.match(/^(.+)\.Format$/);
  if (method) {
    const date = field(method[1], ctx);
    const layout = rest.length === 1 ? operand(rest[0], ctx) : null;
    return date === null || layout === null || piped !== null ? null : formatGoLayout(date, layout);
  }
  const fn = FUNCTIONS[head];
  if (!fn) return rest.length === 0 && piped === null ? operand(head, ctx) : null;
  const args = rest.map((a) => operand(a, ctx));
  if (piped !== null) args.push(piped);
  if (args.length !== fn.arity || args.some((a) => a === null)) return null;
  return fn.run(args as string[]);
}

/** Evaluates one action (`replace .Name "-" " " | title`); null when it is outside the supported subset. */
export function evaluateAction(action: string, ctx: ArchetypeContext): string | null {
  if (/^\/\*[\s\S]*\*\/$/.test(action)) return "";
  let value: Value | null = null;
  for (const part of action.match(/(?:"(?:\\.|[^"\\])*"|`[^`]*`|[^|"`])+/g) ?? []) {
    value = command(part, value, ctx);
    if (value === null) return null;
  }
  return value;
}

/** Expands the actions of an archetype; `{{-`/`-}}` trim whitespace as in Go templates. */
export function expandArchetype(template: string, ctx: ArchetypeContext): string {
  let out = "";
  let i = 0;
  for (;;) {
    const open = template.indexOf("{{", i);
    const close = open < 0 ? -1 : template.indexOf("}}", open + 2);
    if (close < 0) return out + template.slice(i);
    let text = template.slice(i, open);
    let inner = template.slice(open + 2, close);
    if (/^-\s/.test(inner)) {
      text = text.trimEnd();
      inner = inner.slice(1);
    }
    const trimRight = /\s-$/.test(inner);
    if (trimRight) inner = inner.slice(0, -1);
    out += text + (evaluateAction(inner.trim(), ctx) ?? template.slice(open, close + 2));
    i = close + 2;
    if (trimRight) { while (i < template.length && /\s/.test(template[i])) i++; }
  }
}
