/**
 * Live WebDAV properties and the XML of multistatus responses. The DAV namespace is the document's default
 * (`<multistatus xmlns="DAV:">`), so its elements carry no prefix: some 90 bytes less per entry of a PROPFIND
 * answer than with `D:`. Fragments kept as the client sent them (dead properties, lock owners) were serialised
 * with no default namespace in scope and go through {@link inDavDocument} before they are embedded.
 */
import { mimeByExtension } from "../fs/mime.ts";
import type { DavLock } from "./locks.ts";
import { clarkName } from "./dead_props.ts";
import { DAV_NS, escapeText, escapeXml, parseXml, serializeChildren } from "./xml.ts";

/** What the live properties of one entry are made of. */
export interface EntryFacts {
  /** The entry's own name (its display name). */
  name: string;
  href: string;
  isDir: boolean;
  size: number;
  mtimeMs: number;
  /** Birth time when known, else the modification time. */
  createdMs: number;
}

/** Names of the live properties (allprop returns all but lockdiscovery's expensive cousins, which are cheap here). */
export const LIVE_PROPS = [
  "creationdate",
  "displayname",
  "getcontentlength",
  "getcontenttype",
  "getetag",
  "getlastmodified",
  "lockdiscovery",
  "resourcetype",
  "supportedlock",
] as const;

/** Live properties that may not be set or removed by PROPPATCH. */
export const PROTECTED_PROPS = new Set<string>(LIVE_PROPS.map((n) => clarkName(DAV_NS, n)));

/** The entity tag of an entry, the same as the download ETag (`"<hex mtime ms>-<hex size>"`). */
export function etagFrom(mtimeMs: number, size: number): string {
  return `"${mtimeMs.toString(16)}-${size.toString(16)}"`;
}

const SUPPORTED_LOCK = "<lockentry><lockscope><exclusive/></lockscope><locktype><write/></locktype>" +
  "</lockentry><lockentry><lockscope><shared/></lockscope><locktype><write/></locktype>" +
  "</lockentry>";

/** A formatter of whole seconds that remembers its last answer (a folder's entries often share one). */
function perSecond(format: (ms: number) => string): (ms: number) => string {
  let second = NaN, text = "";
  return (ms) => {
    const s = Math.floor(ms / 1000);
    if (s !== second) {
      text = format(s * 1000);
      second = s;
    }
    return text;
  };
}

/** An HTTP date (`getlastmodified`). */
const httpDate = perSecond((ms) => new Date(ms).toUTCString());
/** An RFC 3339 date without fractions (`creationdate`). */
const isoDate = perSecond((ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"));

const SUPPORTED_LOCK_XML = `<supportedlock>${SUPPORTED_LOCK}</supportedlock>`;

/** The XML of one active lock (inside lockdiscovery and the LOCK answer). */
export function activeLockXml(lock: DavLock, now: number): string {
  const left = Math.max(0, Math.ceil((lock.expires - now) / 1000));
  return `<activelock><locktype><write/></locktype><lockscope><${lock.scope}/></lockscope>` +
    `<depth>${lock.depth}</depth>${lock.owner ? `<owner>${inDavDocument(lock.owner)}</owner>` : ""}` +
    `<timeout>Second-${left}</timeout><locktoken><href>${escapeXml(lock.token)}</href></locktoken>` +
    `<lockroot><href>${escapeXml(lock.root)}</href></lockroot></activelock>`;
}

/** The value XML of a live property, or null when the entry does not have it (files only, folders only). */
export function livePropXml(
  name: string,
  e: EntryFacts,
  locks: readonly DavLock[],
  now: number,
): string | null {
  switch (name) {
    case "creationdate":
      return `<creationdate>${isoDate(e.createdMs)}</creationdate>`;
    case "displayname":
      return `<displayname>${escapeText(e.name)}</displayname>`;
    case "getcontentlength":
      return e.isDir ? null : `<getcontentlength>${e.size}</getcontentlength>`;
    case "getcontenttype":
      return e.isDir
        ? null
        : `<getcontenttype>${
          escapeText(mimeByExtension(e.name) || "application/octet-stream")
        }</getcontenttype>`;
    case "getetag":
      return e.isDir ? null : `<getetag>${etagFrom(e.mtimeMs, e.size)}</getetag>`;
    case "getlastmodified":
      return `<getlastmodified>${httpDate(e.mtimeMs)}</getlastmodified>`;
    case "lockdiscovery":
      return locks.length === 0
        ? "<lockdiscovery/>"
        : `<lockdiscovery>${locks.map((l) => activeLockXml(l, now)).join("")}</lockdiscovery>`;
    case "resourcetype":
      return e.isDir ? "<resourcetype><collection/></resourcetype>" : "<resourcetype/>";
    case "supportedlock":
      return SUPPORTED_LOCK_XML;
    default:
      return null;
  }
}

/**
 * A fragment serialised with no default namespace in scope (a dead property's element, a lock owner's
 * content), ready for a document whose default namespace is DAV: its outermost elements in no namespace get
 * `xmlns=""`, so they do not fall into DAV. With `element`, the fragment is one element, and one that declares
 * its namespace right after its name (what our serialiser writes for any namespace but none) is returned as
 * it is, without parsing.
 */
export function inDavDocument(fragment: string, options: { element?: boolean } = {}): string {
  if (!fragment.includes("<")) return fragment;
  if (options.element && /^<[^\s/>]+ xmlns="[^"]/.test(fragment)) return fragment;
  try {
    return serializeChildren(parseXml(`<w>${fragment}</w>`), DAV_NS);
  } catch {
    // Unreachable for what our serialiser wrote; never fail an answer over a stored fragment.
    return fragment;
  }
}

/** An empty element for a property name (propname answers, 404 lists). */
export function emptyPropXml(ns: string, name: string): string {
  return ns === DAV_NS ? `<${name}/>` : `<${name} xmlns="${escapeXml(ns)}"/>`;
}

/** Splits a Clark name into namespace and local name. */
export function splitClark(clark: string): { ns: string; name: string } {
  const end = clark.indexOf("}");
  return { ns: clark.slice(1, end), name: clark.slice(end + 1) };
}

/** One `<propstat>` group. */
export function propstatXml(props: string, status: string): string {
  return `<propstat><prop>${props}</prop><status>HTTP/1.1 ${status}</status></propstat>`;
}

/** The opening of a multistatus document. */
export const MULTISTATUS_START = '<?xml version="1.0" encoding="utf-8"?>\n<multistatus xmlns="DAV:">';
/** The end of a multistatus document. */
export const MULTISTATUS_END = "</multistatus>\n";

/** A `<response>` with a plain status (no properties). */
export function statusResponseXml(href: string, status: string): string {
  return `<response><href>${escapeXml(href)}</href><status>HTTP/1.1 ${status}</status></response>`;
}
