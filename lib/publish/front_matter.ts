/**
 * Front matter of static-site posts (Hugo's three formats: `---` YAML, `+++` TOML, `{` JSON). Edits are textual
 * and touch only the lines (or JSON values) of the keys being set, so every other key, comment, the key order
 * and the body stay byte for byte; nothing is re-serialised.
 */
import { BadRequestError } from "../errors.ts";
import type { FrontMatterFormat } from "../types.ts";
import { findJsonObject, setJsonMembers } from "./_json_object.ts";

/** Where the front matter sits in a text. */
export interface FrontMatterBlock {
  format: FrontMatterFormat;
  /** YAML/TOML: offset of the first line inside the delimiters. JSON: offset of `{`. */
  start: number;
  /** YAML/TOML: offset of the closing delimiter line. JSON: offset just past `}`. */
  end: number;
  /** Line ending of the opening line (new lines use it). */
  eol: string;
}

/** The keys a publish writes. Keys are matched case-insensitively, as Hugo does. */
export interface FrontMatterEdit {
  title?: string;
  date?: string;
  draft?: boolean;
}

/** The values of the publish keys, as read from the front matter. */
export interface FrontMatterValues {
  format: FrontMatterFormat;
  title: string | null;
  date: string | null;
  draft: boolean | null;
}

const DELIMITERS = { yaml: "---", toml: "+++" } as const;
const EDIT_ORDER = ["title", "date", "draft"] as const;

/** Finds the front matter at the start of `text` (after an optional BOM); null when there is none. */
export function findFrontMatter(text: string): FrontMatterBlock | null {
  const at = text.startsWith("\uFEFF") ? 1 : 0;
  if (text[at] === "{") {
    const object = findJsonObject(text, at);
    return object && { format: "json", start: at, end: object.end, eol: object.eol };
  }
  const open = /^(---|\+\+\+)[ \t]*(\r?\n)/.exec(text.slice(at));
  if (!open) return null;
  const format = open[1] === "---" ? "yaml" : "toml";
  const start = at + open[0].length;
  for (let i = start; i < text.length;) {
    const nl = text.indexOf("\n", i);
    const line = text.slice(i, nl < 0 ? text.length : nl);
    if (line.trimEnd() === open[1]) return { format, start, end: i, eol: open[2] };
    if (nl < 0) break;
    i = nl + 1;
  }
  return null;
}

/** Renders a string as a double-quoted scalar valid in YAML, TOML and JSON (DEL escaped for TOML). */
export function quoteString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, "\\u007f");
}

// A value as written: booleans bare, titles double-quoted, dates in the quotes the old value had (or bare).
function render(key: string, value: string | boolean, quote: string): string {
  if (typeof value === "boolean") return String(value);
  if (key === "title" || quote === "json") return quoteString(value);
  return quote ? `${quote}${value}${quote}` : value;
}

/** A text's lines, each with its line ending. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function keyPattern(format: "yaml" | "toml", key: string): RegExp {
  return format === "yaml" ? new RegExp(`^${key}[ \\t]*:`, "i") : new RegExp(`^[ \\t]*${key}[ \\t]*=`, "i");
}

// Splits the text after `key:`/`key =` into leading space, the value and a trailing comment.
function splitValue(rest: string): { space: string; value: string; tail: string } {
  const space = rest.match(/^[ \t]*/)![0];
  const body = rest.slice(space.length);
  const triple = body.startsWith('"""') ? '"""' : body.startsWith("'''") ? "'''" : "";
  if (triple) {
    const end = body.indexOf(triple, 3);
    return end < 0
      ? { space, value: body, tail: "" }
      : { space, value: body.slice(0, end + 3), tail: body.slice(end + 3) };
  }
  const q = body[0];
  if (q === '"' || q === "'") {
    let j = 1;
    // Inside "…" a backslash escapes; inside '…' a doubled quote is a quote.
    while (j < body.length) {
      if (q === '"' && body[j] === "\\") j += 2;
      else if (body[j] !== q) j++;
      else if (q === "'" && body[j + 1] === "'") j += 2;
      else break;
    }
    return { space, value: body.slice(0, j + 1), tail: body.slice(j + 1) };
  }
  const comment = body.search(/[ \t]#/);
  return comment < 0
    ? { space, value: body.trimEnd(), tail: body.slice(body.trimEnd().length) }
    : { space, value: body.slice(0, comment), tail: body.slice(comment) };
}

// How many lines the value starting at `lines[i]` occupies (block scalars, multi-line strings).
function valueLines(lines: string[], i: number, limit: number, format: "yaml" | "toml"): number {
  let n = 1;
  if (format === "yaml") {
    while (i + n < limit && /^[ \t]+\S/.test(lines[i + n])) n++;
    return n;
  }
  const value = lines[i].slice(lines[i].indexOf("=") + 1).trim();
  const triple = value.startsWith('"""') ? '"""' : value.startsWith("'''") ? "'''" : "";
  if (triple && !value.slice(3).includes(triple)) {
    while (i + n < limit) {
      if (lines[i + n++].includes(triple)) break;
    }
  }
  return n;
}

function topLevelLimit(lines: string[], format: "yaml" | "toml"): number {
  // TOML: keys after the first [table] header belong to that table, not to the front matter's top level.
  const table = format === "toml" ? lines.findIndex((l) => /^[ \t]*\[/.test(l)) : -1;
  return table < 0 ? lines.length : table;
}

function editLines(inner: string, format: "yaml" | "toml", edit: FrontMatterEdit, eol: string): string {
  const lines = splitLines(inner);
  let limit = topLevelLimit(lines, format);
  const sep = format === "yaml" ? ": " : " = ";
  for (const key of EDIT_ORDER) {
    const value = edit[key];
    if (value === undefined) continue;
    const pattern = keyPattern(format, key);
    const i = lines.slice(0, limit).findIndex((l) => pattern.test(l));
    if (i < 0) {
      lines.splice(limit++, 0, `${key}${sep}${render(key, value, "")}${eol}`);
      continue;
    }
    const line = lines[i];
    const ending = line.match(/\r?\n$/)?.[0] ?? "";
    const prefix = line.match(pattern)![0];
    const old = splitValue(line.slice(prefix.length, line.length - ending.length));
    const quote = /^['"]/.test(old.value) ? old.value[0] : "";
    const span = valueLines(lines, i, limit, format);
    const tail = span > 1 ? "" : old.tail;
    lines.splice(i, span, `${prefix}${old.space || " "}${render(key, value, quote)}${tail}${ending || eol}`);
    limit -= span - 1;
  }
  return lines.join("");
}

/**
 * Sets `title`, `date` and/or `draft` in the front matter of `text`, editing only their lines (an absent key
 * is added at the end of the top level). Throws BadRequestError `no_front_matter` when there is none.
 * `date` must already be a valid ISO 8601 date (it is written as it is).
 */
export function editFrontMatter(text: string, edit: FrontMatterEdit): string {
  const block = findFrontMatter(text);
  if (!block) throw new BadRequestError("the file has no front matter", { code: "no_front_matter" });
  if (block.format === "json") {
    const members = EDIT_ORDER.filter((k) => edit[k] !== undefined)
      .map((key) => ({ key, json: render(key, edit[key]!, "json") }));
    return setJsonMembers(text, block.start, block.end, members);
  }
  const inner = editLines(text.slice(block.start, block.end), block.format, edit, block.eol);
  return text.slice(0, block.start) + inner + text.slice(block.end);
}

/** Puts a new front matter holding `edit` in front of `body` (for archetypes without one). */
export function addFrontMatter(body: string, format: FrontMatterFormat, edit: FrontMatterEdit): string {
  const keys = EDIT_ORDER.filter((k) => edit[k] !== undefined);
  if (format === "json") {
    const members = keys.map((k) => `  ${JSON.stringify(k)}: ${render(k, edit[k]!, "json")}`);
    return `{\n${members.join(",\n")}\n}\n${body}`;
  }
  const sep = format === "yaml" ? ": " : " = ";
  const lines = keys.map((k) => `${k}${sep}${render(k, edit[k]!, "")}\n`).join("");
  return `${DELIMITERS[format]}\n${lines}${DELIMITERS[format]}\n${body}`;
}

function unquote(value: string): string {
  if (value.startsWith('"')) {
    try {
      return JSON.parse(value);
    } catch {
      return value.slice(1, -1);
    }
  }
  if (value.startsWith("'")) return value.slice(1, -1).replaceAll("''", "'");
  return value;
}

/** A top-level scalar of a YAML or TOML text (front matter inside, or a Hugo config file); null if absent. */
export function readTopLevel(text: string, format: "yaml" | "toml", key: string): string | null {
  const lines = splitLines(text);
  const limit = topLevelLimit(lines, format);
  const pattern = keyPattern(format, key);
  const line = lines.slice(0, limit).find((l) => pattern.test(l));
  if (line === undefined) return null;
  const { value } = splitValue(line.replace(/\r?\n$/, "").slice(line.match(pattern)![0].length));
  return unquote(value.trim());
}

function pickJson(obj: Record<string, unknown>, key: string): unknown {
  const found = Object.keys(obj).find((k) => k.toLowerCase() === key);
  return found === undefined ? undefined : obj[found];
}

/** Reads the publish keys of a text's front matter; null when it has none. */
export function readFrontMatter(text: string): FrontMatterValues | null {
  const block = findFrontMatter(text);
  if (!block) return null;
  let title: unknown, date: unknown, draft: unknown;
  if (block.format === "json") {
    const obj = JSON.parse(text.slice(block.start, block.end)) as Record<string, unknown>;
    [title, date, draft] = EDIT_ORDER.map((k) => pickJson(obj, k));
  } else {
    const inner = text.slice(block.start, block.end);
    [title, date, draft] = EDIT_ORDER.map((k) => readTopLevel(inner, block.format as "yaml", k));
    draft = draft === "true" ? true : draft === "false" ? false : draft;
  }
  return {
    format: block.format,
    title: typeof title === "string" ? title : null,
    date: typeof date === "string" ? date : null,
    draft: typeof draft === "boolean" ? draft : null,
  };
}
