// This module is browser-compatible.
/**
 * The /api/search query grammar (docs/api.md#search): `case:`, `type:` filters, a quoted phrase or
 * space-separated terms, and the size a query may have. The server refuses a larger query with 400
 * (lib/search/query.ts); the search overlay says so before sending it.
 */

/** Most terms and `type:` filters of one query: every name searched is tested against each of them. */
export const MAX_SEARCH_TERMS = 32;
/** Longest query, in characters (UTF-16 code units), filters included. */
export const MAX_SEARCH_LENGTH = 500;

/** A parsed search query. */
export interface SearchQuery {
  caseSensitive: boolean;
  /** `type:<w>` words in order; `image|audio|music|video` test the MIME type, others the extension. */
  types: string[];
  /** Substrings of the name, any of which matches; empty = every name. */
  terms: string[];
}

/** Reads a raw query. Unlike upstream, runs of spaces never produce an empty term that matches everything. */
export function readSearchQuery(raw: string): SearchQuery {
  const caseSensitive = raw.includes("case:sensitive");
  let text = raw.replaceAll("case:insensitive", "").replaceAll("case:sensitive", "").trim();
  const types: string[] = [];
  text = text.replace(/type:(\w+)/g, (_m, w: string) => {
    types.push(w);
    return "";
  });
  if (!caseSensitive) text = text.toLowerCase();
  text = text.trim();
  let terms: string[] = [];
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) terms = [text.slice(1, -1)];
  else if (text !== "") terms = text.split(/\s+/).filter((t) => t !== "");
  return { caseSensitive, types, terms };
}

/** True when a raw query is within {@link MAX_SEARCH_LENGTH} and {@link MAX_SEARCH_TERMS}. */
export function searchQueryFits(raw: string): boolean {
  if (raw.length > MAX_SEARCH_LENGTH) return false;
  const { terms, types } = readSearchQuery(raw);
  return terms.length + types.length <= MAX_SEARCH_TERMS;
}
