// This module is browser-compatible.
/**
 * What a file name or path may be: the limits of the file system (NAME_MAX, PATH_MAX) and the characters a new
 * name must not contain. One set of checks for the server (which refuses with 400) and the UI (which can warn
 * before sending).
 */

/** Longest file name in bytes (UTF-8), Linux's NAME_MAX. */
export const MAX_NAME_BYTES = 255;

/** Longest path in bytes (UTF-8) without its terminating NUL: Linux's PATH_MAX (4096) minus one. */
export const MAX_PATH_BYTES = 4095;

/** Why a name cannot be created; see {@link newNameProblem}. */
export type NameProblem = "empty" | "dot" | "control" | "bidi" | "separator" | "too_long";

/** True for C0 controls, DEL and C1 controls: invisible, and CR/LF break line-based tools, logs and headers. */
export function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/**
 * True for the invisible controls of bidirectional text: the embeddings and overrides U+202A–U+202E, the
 * isolates U+2066–U+2069 and the marks U+200E, U+200F and U+061C. In a name they make `exe.txt` (with a
 * right-to-left override before `txt`) show as `txt.exe`, or the same name look different from the text around
 * it. Characters of right-to-left scripts themselves are fine.
 */
export function hasBidiControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return true;
    if (c === 0x200e || c === 0x200f || c === 0x061c) return true;
  }
  return false;
}

/** UTF-8 length of `s`, stopping early once it is known to exceed `limit`. */
export function utf8Length(s: string, limit = Infinity): number {
  let n = 0;
  for (let i = 0; i < s.length && n <= limit; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * Why `name` cannot be the name of a new file or folder, or null when it can: empty, `.`/`..`, a control
 * character (C0, DEL, C1), a bidirectional control ({@link hasBidiControl}), a `/` or `\` (a separator here or
 * on the user's machine), or more than 255 bytes.
 */
export function newNameProblem(name: string): NameProblem | null {
  if (name === "") return "empty";
  if (name === "." || name === "..") return "dot";
  if (hasControlCharacter(name)) return "control";
  if (hasBidiControl(name)) return "bidi";
  if (name.includes("/") || name.includes("\\")) return "separator";
  if (utf8Length(name, MAX_NAME_BYTES) > MAX_NAME_BYTES) return "too_long";
  return null;
}

/** Why a requested path can never name an entry (NUL byte, a name or the whole path too long), or null. */
export function pathProblem(path: string): "nul" | "name_too_long" | "path_too_long" | null {
  if (path.includes("\0")) return "nul";
  if (utf8Length(path, MAX_PATH_BYTES) > MAX_PATH_BYTES) return "path_too_long";
  for (const segment of path.split("/")) {
    if (utf8Length(segment, MAX_NAME_BYTES) > MAX_NAME_BYTES) return "name_too_long";
  }
  return null;
}
