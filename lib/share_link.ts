// This module is browser-compatible.
/**
 * Custom share links (`/share/<link>` instead of a random hash), one rule for the server, which refuses a bad one
 * with 400, and the share dialog, which warns before sending and proposes a link from the item's name.
 */
import { newNameProblem } from "./names.ts";

/** Longest custom link, in characters (all of them ASCII). */
export const CUSTOM_LINK_MAX_LENGTH = 128;

/** A word character first, then URL-safe characters only: the link needs no escaping in a URL. */
const CUSTOM_LINK = new RegExp(`^\\w[\\w.~-]{0,${CUSTOM_LINK_MAX_LENGTH - 1}}$`);

/** Whether a custom link is acceptable as it is (callers trim what the user typed first). */
export function isValidCustomLink(link: string): boolean {
  return CUSTOM_LINK.test(link) && newNameProblem(link) === null;
}

/** The custom link proposed for an item name: unsafe runs become "-", leading non-word characters go. */
export function defaultCustomLink(name: string): string {
  return name.replace(/[^\w.~-]+/g, "-").replace(/^[^\w]+/, "").slice(0, CUSTOM_LINK_MAX_LENGTH);
}
