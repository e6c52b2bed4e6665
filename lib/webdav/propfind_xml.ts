/**
 * The XML of PROPFIND answers: the request body's choice of properties, and one `<response>` per entry (DAV
 * is the default namespace, lib/webdav/props_xml.ts), built by string concatenation (a 100k-entry folder
 * renders 100k of them).
 */
import { HttpError } from "../errors.ts";
import type { DavLock } from "./locks.ts";
import { clarkName } from "./dead_props.ts";
import {
  emptyPropXml,
  type EntryFacts,
  inDavDocument,
  LIVE_PROPS,
  livePropXml,
  MULTISTATUS_START,
  splitClark,
} from "./props_xml.ts";
import { childElements, DAV_NS, escapeXml, type XmlElement } from "./xml.ts";

/** A property named in a `prop` list; `prefix` is declared on the multistatus for namespaces other than DAV. */
export interface NamedProp {
  ns: string;
  name: string;
  prefix?: string;
}

/** What the client asked for. */
export type PropRequest =
  | { kind: "allprop"; include: { ns: string; name: string }[] }
  | { kind: "propname" }
  | { kind: "prop"; props: NamedProp[] };

/**
 * Gives the namespaces of a `prop` list other than DAV (and none) the prefixes `a0`, `a1`, … in order of
 * appearance: the multistatus declares them once, so a property every entry lacks (rclone asks for
 * `oc:checksums`) costs `<a0:checksums/>` per entry instead of a namespace declaration each time.
 */
function withPrefixes(props: { ns: string; name: string }[]): NamedProp[] {
  const prefixes = new Map<string, string>();
  return props.map(({ ns, name }) => {
    if (ns === DAV_NS || ns === "") return { ns, name };
    let prefix = prefixes.get(ns);
    if (prefix === undefined) prefixes.set(ns, prefix = `a${prefixes.size}`);
    return { ns, name, prefix };
  });
}

/** The opening of the multistatus of a PROPFIND answer, with the prefixes of `req` declared. */
export function multistatusStart(req: PropRequest): string {
  if (req.kind !== "prop") return MULTISTATUS_START;
  const seen = new Set<string>();
  let decl = "";
  for (const { ns, prefix } of req.props) {
    if (prefix === undefined || seen.has(prefix)) continue;
    seen.add(prefix);
    decl += ` xmlns:${prefix}="${escapeXml(ns)}"`;
  }
  return decl === "" ? MULTISTATUS_START : `${MULTISTATUS_START.slice(0, -1)}${decl}>`;
}

/**
 * Most properties a PROPFIND may name (a `prop` list or allprop's `include`): every entry of a folder's answer
 * goes through the list, so a list of thousands would make one request render millions of elements. A
 * resource has at most 9 live and 256 dead properties; clients ask for a few dozen at most.
 */
export const MAX_PROPFIND_PROPS = 256;

/** Reads a PROPFIND body (none: allprop); 400 for anything else than propfind with allprop, propname or prop. */
export function parsePropfind(root: XmlElement | null): PropRequest {
  if (root === null) return { kind: "allprop", include: [] };
  if (root.ns !== DAV_NS || root.name !== "propfind") throw new HttpError(400, "bad_propfind");
  const [first] = childElements(root, DAV_NS);
  if (!first) throw new HttpError(400, "bad_propfind");
  const names = (el: XmlElement | undefined) => {
    const list = el ? childElements(el).map((c) => ({ ns: c.ns, name: c.name })) : [];
    if (list.length > MAX_PROPFIND_PROPS) {
      throw new HttpError(400, "too_many_props", `a PROPFIND names at most ${MAX_PROPFIND_PROPS} properties`);
    }
    return list;
  };
  if (first.name === "propname") return { kind: "propname" };
  if (first.name === "allprop") {
    return { kind: "allprop", include: names(childElements(root, DAV_NS, "include")[0]) };
  }
  if (first.name === "prop") return { kind: "prop", props: withPrefixes(names(first)) };
  throw new HttpError(400, "bad_propfind");
}

const OK_END = "</prop><status>HTTP/1.1 200 OK</status></propstat>";
const MISSING_END = "</prop><status>HTTP/1.1 404 Not Found</status></propstat>";

/** The `<response>` of one entry. */
export function entryXml(
  e: EntryFacts,
  req: PropRequest,
  dead: Map<string, string> | undefined,
  locks: readonly DavLock[],
  now: number,
): string {
  let found = "";
  let missing = "";
  if (req.kind === "propname") {
    for (const n of LIVE_PROPS) if (livePropXml(n, e, locks, now) !== null) found += `<${n}/>`;
    for (const clark of dead?.keys() ?? []) {
      const { ns, name } = splitClark(clark);
      found += emptyPropXml(ns, name);
    }
  } else if (req.kind === "allprop") {
    for (const n of LIVE_PROPS) found += livePropXml(n, e, locks, now) ?? "";
    if (dead !== undefined) { for (const v of dead.values()) found += inDavDocument(v, { element: true }); }
  } else {
    for (const { ns, name, prefix } of req.props) {
      const x = ns === DAV_NS ? livePropXml(name, e, locks, now) : null;
      if (x !== null) {
        found += x;
        continue;
      }
      const d = dead?.get(clarkName(ns, name));
      if (d !== undefined) found += inDavDocument(d, { element: true });
      else missing += prefix === undefined ? emptyPropXml(ns, name) : `<${prefix}:${name}/>`;
    }
  }
  const href = e.href.includes("&") ? e.href.replace(/&/g, "&amp;") : e.href;
  let out = "<response><href>" + href + "</href>";
  if (found !== "" || missing === "") out += "<propstat><prop>" + found + OK_END;
  if (missing !== "") out += "<propstat><prop>" + missing + MISSING_END;
  return out + "</response>";
}
