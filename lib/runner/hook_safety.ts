// This module is browser-compatible.
/**
 * Hook lines that would hand a file name to a program as code (issue #24), refused when the settings are saved
 * (the settings screen checks first with this same module) and again before a hook runs, so a line stored
 * before the check existed never runs either. Without a shell the server expands `$FILE` itself, into one
 * argument; that argument is code when it is what a shell runs (`sh -c "cp $FILE /b"`), an interpreter's
 * program (`python3 -c`, `perl -e`, `awk`, `sed`…) or a remote command (`ssh`). With a shell set the line is
 * shell code and the shell expands the variables: an unquoted `$FILE` is split into words and expanded as a
 * pattern, and a quoted one is code again when a nested shell, `eval` or an interpreter runs it, or in
 * `$((…))`. The safe form puts the code in single quotes and lets the shell read the exported variable in
 * double quotes: `sh -c 'cp "$FILE" /b'`.
 */

import { baseName, codeWords, SHELL_NAMES } from "./code_args.ts";

/** Exported variables whose values users choose: a file name, a username, or a scope or home made from one. */
export const TAINTED_VARIABLES: ReadonlySet<string> = new Set(
  "FILE DESTINATION SCOPE USERNAME HOME".split(" "),
);

/** Why a hook line is refused. */
export interface UnsafeHook {
  /** The variable, as written (`$FILE`). */
  variable: string;
  /** What would read it as code: a program's name (`sh`, `python3`, `eval`, `arithmetic`), or "shell" for an
   * unquoted use in the configured shell. */
  program: string;
  /** The line rewritten so that the value is only ever data; null when no rewrite is known. */
  safe: string | null;
}

/** Where something is in the line read. */
interface Span {
  start: number;
  end: number;
}

interface Word extends Span {
  /** The value the program gets, with variable references left as written. */
  text: string;
  refs: Span[];
  /** A command substitution inside it uses a tainted variable. */
  taintedSub: string | null;
}

interface Finding extends Span {
  variable: string;
  program: string;
  replacement: string | null;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const SPACE = new Set([" ", "\t", "\r", "\n"]);
const SHELL_OPERATORS = new Set([";", "&", "|", "(", ")", "<", ">", "\n"]);

/** `'…'` quoting of any text (a single quote becomes `'\''`). */
export function singleQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Reads a line into commands of words, recording variable uses; `shell` false reads it like splitWords(). */
class Scanner {
  readonly findings: Finding[] = [];
  i = 0;
  /** The character that closes the substitution being read (a backquote ends words too). */
  stop: string | null = null;
  constructor(readonly src: string, readonly shell: boolean) {}

  /** Commands up to `stop` (a closing character of a substitution) or the end. */
  commands(stop: string | null = null): Word[][] {
    this.stop = stop;
    const out: Word[][] = [];
    let words: Word[] = [];
    let redirect = false;
    const end = () => {
      if (words.length) out.push(words);
      words = [];
    };
    const s = this.src;
    while (this.i < s.length) {
      const ch = s[this.i];
      if (stop !== null && ch === stop) {
        this.i++;
        break;
      }
      if (ch === " " || ch === "\t" || (!this.shell && SPACE.has(ch))) {
        this.i++;
      } else if (ch === "#") {
        while (this.i < s.length && s[this.i] !== "\n") this.i++;
      } else if (this.shell && SHELL_OPERATORS.has(ch)) {
        this.i++;
        if (ch === "<" || ch === ">") {
          redirect = true;
          while (this.i < s.length && "<>&|".includes(s[this.i])) this.i++;
        } else end();
      } else {
        const word = this.word(words.length === 0);
        if (redirect) redirect = false;
        else words.push(word);
      }
    }
    end();
    for (const command of out) this.#checkCommand(command);
    return out;
  }

  /** One word from here; `first`: the program (never expanded without a shell). */
  word(first: boolean): Word {
    const s = this.src;
    const word: Word = { start: this.i, end: this.i, text: "", refs: [], taintedSub: null };
    while (this.i < s.length) {
      const ch = s[this.i];
      if (SPACE.has(ch) || (this.shell && SHELL_OPERATORS.has(ch)) || ch === this.stop) break;
      if (ch === "\\") {
        word.text += s[this.i + 1] ?? "";
        this.i += 2;
      } else if (ch === "'") {
        const close = s.indexOf("'", this.i + 1);
        const end = close < 0 ? s.length : close;
        word.text += s.slice(this.i + 1, end);
        this.i = end + 1;
      } else if (ch === '"') {
        this.i++;
        while (this.i < s.length && s[this.i] !== '"') {
          const c = s[this.i];
          if (c === "\\" && (!this.shell || '$`"\\\n'.includes(s[this.i + 1]))) {
            word.text += s[this.i + 1] ?? "";
            this.i += 2;
          } else if (!this.#dollar(word, true, first)) {
            word.text += c;
            this.i++;
          }
        }
        this.i++;
      } else if (!this.#dollar(word, false, first)) {
        word.text += ch;
        this.i++;
      }
    }
    word.end = Math.min(this.i, s.length);
    return word;
  }

  /** A `$…` (or, in a shell, a backquote) at the cursor: consumed into `word` (true), or not one (false). */
  #dollar(word: Word, quoted: boolean, first: boolean): boolean {
    const s = this.src;
    const at = this.i;
    if (this.shell && s[at] === "`") {
      this.i++;
      this.#substitution(word, "`");
      word.text += s.slice(at, this.i);
      return true;
    }
    if (s[at] !== "$" || (!this.shell && first)) return false;
    if (this.shell && s.startsWith("$((", at)) {
      const close = s.indexOf("))", at + 3);
      const end = close < 0 ? s.length : close + 2;
      const inner = s.slice(at + 3, end - 2);
      for (const name of inner.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
        if (TAINTED_VARIABLES.has(name)) {
          // Arithmetic evaluates the value as an expression (bash runs `a[$(…)]` in it).
          this.findings.push({
            start: at,
            end,
            variable: `$${name}`,
            program: "arithmetic",
            replacement: null,
          });
          break;
        }
      }
      word.text += s.slice(at, end);
      this.i = end;
      return true;
    }
    if (this.shell && s[at + 1] === "(") {
      this.i += 2;
      this.#substitution(word, ")");
      word.text += s.slice(at, this.i);
      return true;
    }
    let name: string | undefined;
    let end: number;
    if (s[at + 1] === "{") {
      const close = s.indexOf("}", at + 2);
      if (close < 0) return false;
      const inner = s.slice(at + 2, close);
      name = NAME.exec(inner)?.[0];
      // Without a shell only ${NAME} is a reference (as in splitWords); a shell also has ${NAME:-…} and the like.
      if (!name || (!this.shell && name !== inner)) return false;
      end = close + 1;
    } else {
      name = NAME.exec(s.slice(at + 1, at + 130))?.[0];
      if (!name) return false;
      end = at + 1 + name.length;
    }
    word.text += s.slice(at, end);
    if (TAINTED_VARIABLES.has(name)) {
      word.refs.push({ start: at, end });
      if (this.shell && !quoted) {
        const variable = s.slice(at, end);
        this.findings.push({ start: at, end, variable, program: "shell", replacement: `"${variable}"` });
      }
    }
    this.i = end;
    return true;
  }

  /** The commands of `$(…)` or `` `…` ``, read in place; a tainted use inside taints the word. */
  #substitution(word: Word, stop: string): void {
    const inner = new Scanner(this.src, true);
    inner.i = this.i;
    const used = inner.commands(stop).flat().find((w) => w.refs.length > 0 || w.taintedSub !== null);
    this.i = inner.i;
    this.findings.push(...inner.findings);
    const ref = used?.refs[0];
    word.taintedSub ??= ref
      ? this.src.slice(ref.start, ref.end)
      : used?.taintedSub ?? inner.findings[0]?.variable ?? null;
  }

  /**
   * Records the words that a program of this command runs as code and that hold a tainted value: expanded into
   * them here, or (for a shell's code) used unsafely by that code itself.
   */
  #checkCommand(words: Word[]): void {
    for (const { index, program, shell } of codeWords(words.map((w) => w.text), this.shell)) {
      const word = words[index];
      const outer = word.refs[0] ? this.src.slice(word.refs[0].start, word.refs[0].end) : word.taintedSub;
      const inner = shell ? findingsOf(word.text, true) : [];
      if (outer === null && inner.length === 0) continue;
      const fixed = shell && word.taintedSub === null ? rewrite(word.text, inner) : null;
      this.findings.push({
        start: word.start,
        end: word.end,
        variable: outer ?? inner[0].variable,
        program: outer === null ? inner[0].program : program,
        replacement: fixed === null ? null : singleQuote(fixed),
      });
    }
  }
}

/** Reads `line` and records every unsafe use; `shell` true when a POSIX shell runs it. */
function findingsOf(line: string, shell: boolean): Finding[] {
  const scanner = new Scanner(line, shell);
  scanner.commands();
  return scanner.findings;
}

/** Applies the rewrites of the outermost findings; null when one of them has none. */
function rewrite(src: string, findings: Finding[]): string | null {
  const outer = findings.filter((f) =>
    !findings.some((g) =>
      g !== f && g.start <= f.start && f.end <= g.end && (g.end - g.start > f.end - f.start)
    )
  );
  const unique = outer.filter((f, i) => outer.findIndex((g) => g.start === f.start && g.end === f.end) === i);
  let out = src;
  for (const f of unique.sort((a, b) => b.start - a.start)) {
    if (f.replacement === null) return null;
    out = out.slice(0, f.start) + f.replacement + out.slice(f.end);
  }
  return out;
}

/**
 * Checks one hook line as it would run: with `shell` (the settings' shell, e.g. `["sh", "-c"]`) or split into
 * words; null when the values of {@link TAINTED_VARIABLES} only ever reach programs as data.
 */
export function checkHookLine(raw: string, shell: readonly string[]): UnsafeHook | null {
  let line = raw.trim();
  if (line.endsWith("&")) line = line.slice(0, -1).trim();
  if (line === "") return null;
  // A shell we cannot read (an interpreter) gets the line as its own code: nothing expands `$FILE` there.
  if (shell.length > 0 && !shell.some((w) => SHELL_NAMES.has(baseName(w)))) return null;
  const findings = findingsOf(line, shell.length > 0);
  if (findings.length === 0) return null;
  const first = findings.reduce((a, b) => (b.start < a.start ? b : a));
  const safe = rewrite(line, findings);
  return { variable: first.variable, program: first.program, safe };
}

/** The first unsafe line of the hook settings, by hook name in order; null when there is none. */
export function findUnsafeHook(
  commands: Readonly<Record<string, readonly string[]>>,
  shell: readonly string[],
): { hook: string; line: string; unsafe: UnsafeHook } | null {
  for (const hook of Object.keys(commands).sort()) {
    for (const line of commands[hook]) {
      const unsafe = checkHookLine(line, shell);
      if (unsafe !== null) return { hook, line, unsafe };
    }
  }
  return null;
}

/** The English explanation of a refusal (the server's 400 and log; the settings screen translates its own). */
export function describeUnsafeHook(hook: string, line: string, unsafe: UnsafeHook): string {
  const what = unsafe.program === "shell"
    ? `leaves ${unsafe.variable} unquoted, so the shell would split it into words and expand patterns in it`
    : `would let ${unsafe.program} run the value of ${unsafe.variable} as code`;
  const fix = unsafe.safe !== null
    ? `write it as: ${unsafe.safe}`
    : `put the code in single quotes and let it read ${unsafe.variable} from the environment`;
  return `${hook} hook ${JSON.stringify(line)} ${what}; ${fix}`;
}
