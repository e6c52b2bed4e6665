/** Live WebDAV properties and the XML of multistatus responses (prefix `D:` for the DAV namespace). */
import { mimeByExtension } from "../fs/mime.ts";
import type { DavLock } from "./locks.ts";
import { clarkName } from "./dead_props.ts";
import { DAV_NS, escapeXml } from "./xml.ts";

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

const SUPPORTED_LOCK =
  "<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype>" +
  "</D:lockentry><D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype>" +
  "</D:lockentry>";

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

const SUPPORTED_LOCK_XML = `<D:supportedlock>${SUPPORTED_LOCK}</D:supportedlock>`;

/** The XML of one active lock (inside lockdiscovery and the LOCK answer). */
export function activeLockXml(lock: DavLock, now: number): string {
  const left = Math.max(0, Math.ceil((lock.expires - now) / 1000));
  return `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${lock.scope}/></D:lockscope>` +
    `<D:depth>${lock.depth}</D:depth>${lock.owner ? `<D:owner>${lock.owner}</D:owner>` : ""}` +
    `<D:timeout>Second-${left}</D:timeout><D:locktoken><D:href>${
      escapeXml(lock.token)
    }</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(lock.root)}</D:href></D:lockroot></D:activelock>`;
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
      return `<D:creationdate>${isoDate(e.createdMs)}</D:creationdate>`;
    case "displayname":
      return `<D:displayname>${escapeXml(e.name)}</D:displayname>`;
    case "getcontentlength":
      return e.isDir ? null : `<D:getcontentlength>${e.size}</D:getcontentlength>`;
    case "getcontenttype":
      return e.isDir
        ? null
        : `<D:getcontenttype>${
          escapeXml(mimeByExtension(e.name) || "application/octet-stream")
        }</D:getcontenttype>`;
    case "getetag":
      return e.isDir ? null : `<D:getetag>${escapeXml(etagFrom(e.mtimeMs, e.size))}</D:getetag>`;
    case "getlastmodified":
      return `<D:getlastmodified>${httpDate(e.mtimeMs)}</D:getlastmodified>`;
    case "lockdiscovery":
      return locks.length === 0
        ? "<D:lockdiscovery/>"
        : `<D:lockdiscovery>${locks.map((l) => activeLockXml(l, now)).join("")}</D:lockdiscovery>`;
    case "resourcetype":
      return e.isDir ? "<D:resourcetype><D:collection/></D:resourcetype>" : "<D:resourcetype/>";
    case "supportedlock":
      return SUPPORTED_LOCK_XML;
    default:
      return null;
  }
}

/** An empty element for a property name (propname answers, 404 lists). */
export function emptyPropXml(ns: string, name: string): string {
  return ns === DAV_NS ? `<D:${name}/>` : `<${name} xmlns="${escapeXml(ns)}"/>`;
}

/** Splits a Clark name into namespace and local name. */
export function splitClark(clark: string): { ns: string; name: string } {
  const end = clark.indexOf("}");
  return { ns: clark.slice(1, end), name: clark.slice(end + 1) };
}

/** One `<D:propstat>` group. */
export function propstatXml(props: string, status: string): string {
  return `<D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 ${status}</D:status></D:propstat>`;
}

/** The opening of a multistatus document. */
export const MULTISTATUS_START = '<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">';
/** The end of a multistatus document. */
export const MULTISTATUS_END = "</D:multistatus>\n";

/** A `<D:response>` with a plain status (no properties). */
export function statusResponseXml(href: string, status: string): string {
  return `<D:response><D:href>${
    escapeXml(href)
  }</D:href><D:status>HTTP/1.1 ${status}</D:status></D:response>`;
}
