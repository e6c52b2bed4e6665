// This module is browser-compatible.
/**
 * Shell-like word splitting of a command line, with `$VAR` expansion for hook lines.
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

/** Options of {@link splitWords}. */
export interface SplitOptions {
  /**
   * Expands `$NAME` and `${NAME}` outside single quotes, in every word but the first (the program is never
   * expanded). A value is inserted literally into its word: it is never split or parsed again. Unknown names → "".
   */
  expand?: (name: string) => string | undefined;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Reads a `$NAME`/`${NAME}` reference at `chars[i]` (a `$`); null when it is none. */
function variableAt(chars: string[], i: number): { name: string; end: number } | null {
  if (chars[i + 1] === "{") {
    const close = chars.indexOf("}", i + 2);
    if (close < 0) return null;
    const name = chars.slice(i + 2, close).join("");
    return NAME.exec(name)?.[0] === name ? { name, end: close + 1 } : null;
  }
  const name = NAME.exec(chars.slice(i + 1, i + 130).join(""))?.[0];
  return name ? { name, end: i + 1 + name.length } : null;
}

/**
 * Splits a line into words: whitespace separates, single quotes are literal, double quotes allow backslash
 * escapes, a backslash escapes the next character outside quotes, and a word *starting* with `#` begins a comment
 * that runs to the end of the line. Throws {@link WordsError} on an unbalanced quote or a trailing backslash.
 */
export function splitWords(line: string, options: SplitOptions = {}): string[] {
  const words: string[] = [];
  const chars = [...line];
  let word = "";
  let inWord = false;
  let i = 0;
  // Expansion (hooks only) in unquoted and double-quoted text of the arguments.
  const expandAt = (): boolean => {
    if (!options.expand || words.length === 0 || chars[i] !== "$") return false;
    const v = variableAt(chars, i);
    if (!v) return false;
    word += options.expand(v.name) ?? "";
    i = v.end;
    return true;
  };
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
        if (expandAt()) continue;
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
    } else if (!expandAt()) {
      word += ch;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}
