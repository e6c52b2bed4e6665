// This module is browser-compatible.
/**
 * Which arguments of a command line a program runs as code, for lib/runner/hook_safety.ts: the command string
 * of a shell (`sh -c CODE`), `eval`'s arguments, an interpreter's program (`python3 -c`, `perl -e`, `node -e`,
 * `php -r`, `awk`, `sed`), the remote command of `ssh`, and the command of `su -c`, `runuser -c`, `script -c`,
 * `flock -c` and `watch`. Every word is looked at, so wrappers (`env`, `timeout 5`, `xargs`, `find -exec`) are
 * seen through; a plain argument that happens to be named like one of these programs counts too (refusing too
 * much, never too little).
 */

/** Shells that read their code like POSIX sh. */
const POSIX_SHELLS = new Set([
  "sh",
  "bash",
  "dash",
  "zsh",
  "ksh",
  "ksh93",
  "mksh",
  "ash",
  "yash",
  "posh",
]);
/** Shells whose code is read like a POSIX shell's here (fish and csh differ, but expand `$FILE` as well). */
export const SHELL_NAMES = new Set([...POSIX_SHELLS, "fish", "csh", "tcsh"]);

/** The last path segment of a program word. */
export function baseName(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/** Which words (by index) a program among `words` runs as code, and whether it runs them with a shell. */
export function codeWords(
  words: string[],
  inShell: boolean,
): { index: number; program: string; shell: boolean }[] {
  const out: { index: number; program: string; shell: boolean }[] = [];
  const n = words.length;
  const add = (index: number, program: string, shell: boolean) => {
    if (index < n) out.push({ index, program, shell });
  };
  for (let i = 0; i < n; i++) {
    const program = baseName(words[i]);
    let j = i + 1;
    const isOption = (w: string) => w.length > 1 && w.startsWith("-") && w !== "--";
    if (SHELL_NAMES.has(program)) {
      let command = false;
      while (j < n && (isOption(words[j]) || words[j].startsWith("+"))) {
        const w = words[j];
        if (/^[-+][oO]$/.test(w) || w === "--rcfile" || w === "--init-file") j++;
        else if (/^-[A-Za-z]+$/.test(w) && w.includes("c")) command = true;
        else if (w === "--command") command = true;
        j++;
      }
      if (words[j] === "--") j++;
      if (command) add(j, program, true);
    } else if (program === "eval" && inShell && i === 0) {
      for (let k = j; k < n; k++) add(k, "eval", true);
    } else if (/^(python[0-9.]*|pypy[0-9.]*)$/.test(program)) {
      for (; j < n && isOption(words[j]); j++) {
        const w = words[j];
        if (w === "-m") break;
        if (w.startsWith("-c")) {
          add(w === "-c" ? j + 1 : j, program, false);
          break;
        }
        if (w === "-W" || w === "-X") j++;
      }
    } else if (/^(perl[0-9.]*|ruby[0-9.]*|lua[0-9.]*|luajit|node|nodejs|bun|php[0-9.]*)$/.test(program)) {
      const code = program.startsWith("php")
        ? /^-[rBRE]$/
        : /^(node|nodejs|bun)$/.test(program)
        ? /^-[ep]$|^--(eval|print)$/
        : /^-[A-Za-z]*[eE]$/;
      for (; j < n && isOption(words[j]); j++) {
        if (code.test(words[j])) add(++j, program, false);
        else if (/^--(eval|print)=/.test(words[j]) || /^-[A-Za-z]*[eE].+/.test(words[j])) {
          add(j, program, false);
        }
      }
    } else if (program === "deno" && words[j] === "eval") {
      for (j++; j < n && isOption(words[j]); j++);
      add(j, program, false);
    } else if (/^[gmn]?awk$/.test(program) || /^g?sed$/.test(program)) {
      const sed = program.endsWith("sed");
      let script = false;
      for (; j < n && isOption(words[j]); j++) {
        const w = words[j];
        if (w === "-e" || w === "--source" || w === "--expression") {
          add(++j, program, false);
          script = true;
        } else if (w.startsWith("--expression=") || w.startsWith("--source=")) {
          add(j, program, false);
          script = true;
        } else if (w === "-f" || w.startsWith("--file")) {
          script = true;
          if (w === "-f") j++;
        } else if ((!sed && (w === "-F" || w === "-v")) || (sed && w === "-l")) j++;
      }
      if (words[j] === "--") j++;
      if (!script) add(j, program, false);
    } else if (program === "ssh") {
      for (; j < n && isOption(words[j]); j++) if (/^-[bcDEeFIiJLlmOoPpQRSWw]$/.test(words[j])) j++;
      // Everything after the destination is one command line for the remote shell (which gets no FILE).
      for (let k = j + 1; k < n; k++) add(k, program, false);
    } else if (["su", "runuser", "script", "flock"].includes(program)) {
      for (; j < n; j++) {
        if (words[j] === "-c" || words[j] === "--command") add(j + 1, program, true);
        else if (words[j].startsWith("--command=")) add(j, program, false);
      }
    } else if (program === "watch") {
      let exec = false;
      for (; j < n && isOption(words[j]); j++) {
        if (words[j] === "-x" || words[j] === "--exec") exec = true;
        else if (/^-[nqd]$|^--(interval|differences)$/.test(words[j])) j++;
      }
      if (!exec) { for (let k = j; k < n; k++) add(k, program, true); }
    }
  }
  return out;
}
