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
  splitClark,
} from "./props_xml.ts";
import { childElements, DAV_NS, type XmlElement } from "./xml.ts";

/** What the client asked for. */
export type PropRequest =
  | { kind: "allprop"; include: { ns: string; name: string }[] }
  | { kind: "propname" }
  | { kind: "prop"; props: { ns: string; name: string }[] };

/** Reads a PROPFIND body (none: allprop); 400 for anything else than propfind with allprop, propname or prop. */
export function parsePropfind(root: XmlElement | null): PropRequest {
  if (root === null) return { kind: "allprop", include: [] };
  if (root.ns !== DAV_NS || root.name !== "propfind") throw new HttpError(400, "bad_propfind");
  const [first] = childElements(root, DAV_NS);
  if (!first) throw new HttpError(400, "bad_propfind");
  const names = (el: XmlElement | undefined) =>
    el ? childElements(el).map((c) => ({ ns: c.ns, name: c.name })) : [];
  if (first.name === "propname") return { kind: "propname" };
  if (first.name === "allprop") {
    return { kind: "allprop", include: names(childElements(root, DAV_NS, "include")[0]) };
  }
  if (first.name === "prop") return { kind: "prop", props: names(first) };
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
    for (const { ns, name } of req.props) {
      const x = ns === DAV_NS ? livePropXml(name, e, locks, now) : null;
      if (x !== null) {
        found += x;
        continue;
      }
      const d = dead?.get(clarkName(ns, name));
      if (d !== undefined) found += inDavDocument(d, { element: true });
      else missing += emptyPropXml(ns, name);
    }
  }
  const href = e.href.includes("&") ? e.href.replace(/&/g, "&amp;") : e.href;
  let out = "<response><href>" + href + "</href>";
  if (found !== "" || missing === "") out += "<propstat><prop>" + found + OK_END;
  if (missing !== "") out += "<propstat><prop>" + missing + MISSING_END;
  return out + "</response>";
}
