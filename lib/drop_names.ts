/**
 * The names a drop upload may land under (lib/drop.ts): the name the visitor sent, then `name (1).ext` ...
 * `name (100).ext`, then random names. The visitor is never told which one was taken.
 */
import { MAX_NAME_BYTES, utf8Length } from "./names.ts";

/** How many " (n)" suffixes are tried before random names. */
const MAX_SUFFIX = 100;
/** Random names tried after the suffixes (each is free but for a one-in-2^72 chance). */
const RANDOM_NAMES = 3;
/** How many names are tried in all. */
export const CANDIDATES = 1 + MAX_SUFFIX + RANDOM_NAMES;

/** `bytes` random bytes as URL-safe base64 without padding. */
export function randomUrlSafe(bytes: number): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** `stem` + `tail`, the stem cut (by whole code points) so that the name fits in MAX_NAME_BYTES. */
function fitted(stem: string, tail: string): string {
  const points = [...stem];
  while (points.length && utf8Length(points.join("") + tail, MAX_NAME_BYTES) > MAX_NAME_BYTES) points.pop();
  return points.join("") + tail;
}

/**
 * The n-th name tried for `name`: the name itself, then `name (1).ext` ... `name (100).ext`, then random
 * `upload-XXXXXXXXXXXX.ext` names. A name at the length limit is shortened to take its suffix.
 */
export function candidateName(name: string, n: number): string {
  if (n === 0) return name;
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : "";
  if (n <= MAX_SUFFIX) return fitted(stem, ` (${n})${ext}`);
  const random = `upload-${randomUrlSafe(9)}`;
  return utf8Length(random + ext) <= MAX_NAME_BYTES ? random + ext : random;
}
