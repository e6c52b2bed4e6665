// This module is browser-compatible.
/**
 * Shell-like word splitting of a command line and `$VAR` expansion of single words.
 * Nothing here runs anything: `;`, `|`, `&`, `$(…)`, backticks, globs and newlines are ordinary characters, so a
 * line always becomes one program and its literal arguments.
 */

/** A command line that cannot be split (unbalanced quote, trailing backslash). */
export class WordsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WordsError";
  }
}

const SPACE = new Set([" ", "\t", "\r", "\n"]);

/**
 * Splits a line into words: whitespace separates, single quotes are literal, double quotes allow backslash
 * escapes, a backslash escapes the next character outside quotes, and a word *starting* with `#` begins a comment
 * that runs to the end of the line. Throws {@link WordsError} on an unbalanced quote or a trailing backslash.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  const chars = [...line];
  while (i < chars.length) {
    const ch = chars[i];
    if (!inWord) {
      if (SPACE.has(ch)) {
        i++;
        continue;
      }
      if (ch === "#") {
        // A comment runs to the end of the line; words may follow on the next line.
        while (i < chars.length && chars[i] !== "\n") i++;
        continue;
      }
      inWord = true;
    }
    if (SPACE.has(ch)) {
      words.push(word);
      word = "";
      inWord = false;
      i++;
    } else if (ch === "\\") {
      if (i + 1 >= chars.length) throw new WordsError("EOF found after escape character");
      word += chars[i + 1];
      i += 2;
    } else if (ch === "'") {
      const end = chars.indexOf("'", i + 1);
      if (end < 0) throw new WordsError("EOF found when expecting closing quote");
      word += chars.slice(i + 1, end).join("");
      i = end + 1;
    } else if (ch === '"') {
      i++;
      for (;;) {
        if (i >= chars.length) throw new WordsError("EOF found when expecting closing quote");
        const c = chars[i];
        if (c === '"') break;
        if (c === "\\") {
          if (i + 1 >= chars.length) throw new WordsError("EOF found when expecting closing quote");
          word += chars[i + 1];
          i += 2;
        } else {
          word += c;
          i++;
        }
      }
      i++;
    } else {
      word += ch;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/**
 * Expands `$NAME` and `${NAME}` in one word with `lookup` (unknown names become ""). The result stays one word
 * whatever the value holds: expansion happens after splitting, never before. Other `$` sequences stay as they are.
 */
export function expandVars(word: string, lookup: (name: string) => string | undefined): string {
  let out = "";
  let i = 0;
  while (i < word.length) {
    const ch = word[i];
    if (ch !== "$") {
      out += ch;
      i++;
      continue;
    }
    if (word[i + 1] === "{") {
      const end = word.indexOf("}", i + 2);
      const name = end < 0 ? "" : word.slice(i + 2, end);
      if (end >= 0 && NAME.exec(name)?.[0] === name) {
        out += lookup(name) ?? "";
        i = end + 1;
        continue;
      }
    } else {
      const name = NAME.exec(word.slice(i + 1))?.[0];
      if (name) {
        out += lookup(name) ?? "";
        i += 1 + name.length;
        continue;
      }
    }
    out += ch;
    i++;
  }
  return out;
}
