/** Username rules for signup, admin create and rename: NFC, visible characters only, no surrounding whitespace. */
import { BadRequestError } from "./errors.ts";

/** Longest accepted username in UTF-8 bytes (it is part of a KV key, whose limit is 2 KiB). */
export const MAX_USERNAME_BYTES = 255;

// Characters that render as nothing or move text around, so two names that look the same could differ: controls (Cc),
// format characters (Cf: U+200B, U+200E, U+FEFF, bidi overrides, tags), unassigned, private-use and lone surrogates,
// line/paragraph separators, every space but U+0020, and the default-ignorable code points (Hangul fillers,
// variation selectors, U+034F), plus U+2800 (braille blank), which fonts draw as nothing.
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]|(?! )\p{Zs}/u;
const EDGE_SPACE = /^[\s\p{Zs}]|[\s\p{Zs}]$/u;

function codePoint(ch: string): string {
  return "U+" + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
}

/**
 * Returns the NFC form of a username, or throws BadRequestError saying what is wrong (empty, surrounding whitespace,
 * an invisible or control character, too long).
 */
export function normalizeUsername(raw: string): string {
  const name = raw.normalize("NFC");
  if (name === "") throw new BadRequestError("username is empty", { code: "username_empty" });
  if (EDGE_SPACE.test(name)) {
    throw new BadRequestError("username must not start or end with whitespace", { code: "username_invalid" });
  }
  const bad = name.match(INVISIBLE);
  if (bad) {
    throw new BadRequestError(`username contains an invisible or control character (${codePoint(bad[0])})`, {
      code: "username_invalid",
    });
  }
  if (new TextEncoder().encode(name).length > MAX_USERNAME_BYTES) {
    throw new BadRequestError(`username is too long (at most ${MAX_USERNAME_BYTES} bytes)`, {
      code: "username_invalid",
    });
  }
  return name;
}
