/**
 * JSON front matter, textually: where the object at the start of a text ends, and replacing or adding top-level
 * members without re-serialising the rest (private to lib/publish).
 */

// Index just past a JSON string starting at `i` (a `"`), or -1.
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === '"') return j + 1;
  }
  return -1;
}

/** The end (just past `}`) and line ending of the JSON object starting at `at`; null when it is not one. */
export function findJsonObject(text: string, at: number): { end: number; eol: string } | null {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i = skipString(text, i) - 1;
      if (i < 0) return null;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (--depth > 0) continue;
      try {
        const value = JSON.parse(text.slice(at, i + 1));
        if (!value || typeof value !== "object" || Array.isArray(value)) return null;
      } catch {
        return null; // Not JSON: a body that merely starts with "{".
      }
      return { end: i + 1, eol: /\r\n/.test(text.slice(at, i)) ? "\r\n" : "\n" };
    }
  }
  return null;
}

interface JsonMember {
  key: string;
  valueStart: number;
  valueEnd: number;
}

// The top-level members of a JSON object that JSON.parse accepted (so the scan can be simple).
function jsonMembers(text: string, open: number, close: number): JsonMember[] {
  const out: JsonMember[] = [];
  let i = open + 1;
  while (i < close) {
    if (text[i] !== '"') {
      i++;
      continue;
    }
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    let j = text.indexOf(":", keyEnd) + 1;
    while (/\s/.test(text[j])) j++;
    const valueStart = j;
    let depth = 0;
    for (; j < close; j++) {
      const d = text[j];
      if (d === '"') j = skipString(text, j) - 1;
      else if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") depth--;
      else if (depth === 0 && (d === "," || /\s/.test(d))) break;
    }
    out.push({ key, valueStart, valueEnd: j });
    i = j;
  }
  return out;
}

/**
 * Sets top-level members of the object at `text[start, end)` to already-encoded JSON values: an existing member
 * (key compared case-insensitively) gets its value replaced in place, a missing one is added after the `{`.
 */
export function setJsonMembers(
  text: string,
  start: number,
  end: number,
  values: { key: string; json: string }[],
): string {
  const close = end - 1;
  const members = jsonMembers(text, start, close);
  const replacements: { from: number; to: number; text: string }[] = [];
  const missing: string[] = [];
  for (const { key, json } of values) {
    const member = members.find((m) => m.key.toLowerCase() === key);
    if (member) replacements.push({ from: member.valueStart, to: member.valueEnd, text: json });
    else missing.push(`${JSON.stringify(key)}: ${json}`);
  }
  let out = text;
  for (const r of replacements.sort((a, b) => b.from - a.from)) {
    out = out.slice(0, r.from) + r.text + out.slice(r.to);
  }
  if (missing.length) {
    const eol = /\r\n/.test(text.slice(start, end)) ? "\r\n" : "\n";
    const indent = text.slice(start + 1, close).match(/^\r?\n([ \t]*)/)?.[1] ?? "  ";
    const inserted = missing.map((m) => `${eol}${indent}${m}`).join(",");
    out = out.slice(0, start + 1) + inserted + (members.length ? "," : eol) + out.slice(start + 1);
  }
  return out;
}
