/** The /api/search query grammar (docs/api.md): `case:`, `type:` filters, quoted phrase or space-separated terms. */
import { mimeByExtension } from "../fs/mime.ts";

/** A parsed search query. */
export interface SearchQuery {
  caseSensitive: boolean;
  /** `type:<w>` words in order; `image|audio|music|video` test the MIME type, others the extension. */
  types: string[];
  /** Substrings of the name, any of which matches; empty = every name. */
  terms: string[];
}

/** Parses a raw query. Unlike upstream, runs of spaces never produce an empty term that matches everything. */
export function parseSearchQuery(raw: string): SearchQuery {
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

const MIME_TYPES: Record<string, string> = { image: "image", audio: "audio", music: "audio", video: "video" };

function typeMatches(type: string, name: string): boolean {
  const prefix = MIME_TYPES[type];
  if (prefix) return mimeByExtension(name).startsWith(prefix);
  const i = name.lastIndexOf(".");
  return i >= 0 && name.slice(i) === `.${type}`;
}

/** True when an entry name satisfies the query (any type condition, and any term). */
export function matchesQuery(query: SearchQuery, name: string): boolean {
  if (query.types.length && !query.types.some((t) => typeMatches(t, name))) return false;
  if (!query.terms.length) return true;
  const subject = query.caseSensitive ? name : name.toLowerCase();
  return query.terms.some((t) => subject.includes(t));
}
