// This module is browser-compatible.
/**
 * Bidirectional isolation of user text (file names, folder names) inside translated sentences: in a right-to-left
 * page a name made of neutral characters (`.env.local`) would otherwise take the page's direction and show as
 * `env.local.`. Elements use `<bdi>` or `dir="auto"`; text inside a sentence uses FIRST STRONG ISOLATE ... POP
 * DIRECTIONAL ISOLATE, which resolve the name's direction from its own first strong character.
 */

/** `text` wrapped in U+2068 FSI ... U+2069 PDI, for use as a placeholder value in a translated sentence. */
export function isolate(text: string): string {
  return "\u2068" + text + "\u2069";
}
