/**
 * A small namespace-aware XML reader and writer for WebDAV request and response bodies. It parses elements,
 * attributes, text and CDATA, resolves prefixes, and rejects what is malformed (unbalanced tags, unknown
 * prefixes, an empty prefixed namespace, DTDs). Entities other than the five predefined ones and numeric
 * references are refused, so no entity expansion can blow up.
 */
import { BadRequestError, PayloadTooLargeError } from "../errors.ts";

/** The WebDAV namespace. */
export const DAV_NS = "DAV:";

/** A parsed element; `ns` is the resolved namespace URI ("" for none). */
export interface XmlElement {
  ns: string;
  name: string;
  attrs: Map<string, string>;
  children: XmlNode[];
}

/** A child node: an element or text. */
export type XmlNode = XmlElement | string;

/** Largest accepted request body. */
export const MAX_XML_BYTES = 1 << 20;
const MAX_DEPTH = 64;

const NAME =
  /^[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?$/;

function bad(why: string): BadRequestError {
  return new BadRequestError(`invalid XML: ${why}`, { code: "bad_xml" });
}

function decodeEntities(s: string): string {
  if (!s.includes("&")) return s;
  if (/&(?!(?:#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);)/.test(s)) {
    throw bad("bad entity or bare ampersand");
  }
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (_, e: string) => {
    if (e === "lt") return "<";
    if (e === "gt") return ">";
    if (e === "amp") return "&";
    if (e === "quot") return '"';
    if (e === "apos") return "'";
    const code = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    if (!(code > 0 && code <= 0x10ffff)) throw bad("bad character reference");
    return String.fromCodePoint(code);
  });
}

interface Frame {
  el: XmlElement;
  qname: string;
  scope: Map<string, string>;
}

function parseAttrs(src: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const re = /\s*([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/y;
  let i = 0;
  while (i < src.length) {
    if (/^\s*$/.test(src.slice(i))) break;
    re.lastIndex = i;
    const m = re.exec(src);
    if (!m || !NAME.test(m[1]) && !m[1].startsWith("xmlns")) throw bad("malformed attribute");
    if (attrs.has(m[1])) throw bad("duplicate attribute");
    attrs.set(m[1], decodeEntities(m[3] ?? m[4] ?? ""));
    i = re.lastIndex;
  }
  return attrs;
}

function resolveName(
  qname: string,
  scope: Map<string, string>,
  isAttr = false,
): { ns: string; name: string } {
  const i = qname.indexOf(":");
  if (i < 0) return { ns: isAttr ? "" : scope.get("") ?? "", name: qname };
  const prefix = qname.slice(0, i);
  const ns = prefix === "xml" ? "http://www.w3.org/XML/1998/namespace" : scope.get(prefix);
  if (ns === undefined) throw bad(`unknown prefix "${prefix}"`);
  return { ns, name: qname.slice(i + 1) };
}

/** Parses a document and returns its root element; throws 400 on anything malformed. */
export function parseXml(text: string): XmlElement {
  const stack: Frame[] = [];
  let root: XmlElement | null = null;
  let i = 0;
  const top = () => stack[stack.length - 1];
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    const chunk = lt < 0 ? text.slice(i) : text.slice(i, lt);
    if (chunk) {
      if (stack.length) top().el.children.push(decodeEntities(chunk));
      else if (chunk.trim()) throw bad("text outside the root element");
    }
    if (lt < 0) break;
    if (text.startsWith("<?", lt)) {
      const end = text.indexOf("?>", lt);
      if (end < 0) throw bad("unterminated declaration");
      i = end + 2;
    } else if (text.startsWith("<!--", lt)) {
      const end = text.indexOf("-->", lt);
      if (end < 0) throw bad("unterminated comment");
      i = end + 3;
    } else if (text.startsWith("<![CDATA[", lt)) {
      const end = text.indexOf("]]>", lt);
      if (end < 0 || !stack.length) throw bad("bad CDATA");
      top().el.children.push(text.slice(lt + 9, end));
      i = end + 3;
    } else if (text.startsWith("<!", lt)) {
      throw bad("document type declarations are not accepted");
    } else if (text.startsWith("</", lt)) {
      const end = text.indexOf(">", lt);
      if (end < 0) throw bad("unterminated end tag");
      const qname = text.slice(lt + 2, end).trim();
      const frame = stack.pop();
      if (!frame || frame.qname !== qname) throw bad("mismatched end tag");
      i = end + 1;
    } else {
      const end = findTagEnd(text, lt);
      let body = text.slice(lt + 1, end);
      const selfClosing = body.endsWith("/");
      if (selfClosing) body = body.slice(0, -1);
      const m = body.match(/^([^\s/>]+)([\s\S]*)$/);
      if (!m || !NAME.test(m[1])) throw bad("bad element name");
      if (root !== null && !stack.length) throw bad("more than one root element");
      if (stack.length >= MAX_DEPTH) throw bad("nested too deeply");
      const attrs = parseAttrs(m[2]);
      const scope = new Map(stack.length ? top().scope : []);
      for (const [k, v] of attrs) {
        if (k === "xmlns") scope.set("", v);
        else if (k.startsWith("xmlns:")) {
          if (v === "") throw bad("empty namespace for a prefix");
          scope.set(k.slice(6), v);
        }
      }
      const { ns, name } = resolveName(m[1], scope);
      const plain = new Map<string, string>();
      for (const [k, v] of attrs) {
        if (k === "xmlns" || k.startsWith("xmlns:")) continue;
        const a = resolveName(k, scope, true);
        plain.set(a.ns ? `${a.ns} ${a.name}` : a.name, v);
      }
      const el: XmlElement = { ns, name, attrs: plain, children: [] };
      if (stack.length) top().el.children.push(el);
      else root = el;
      if (!selfClosing) stack.push({ el, qname: m[1], scope });
      i = end + 1;
    }
  }
  if (stack.length || root === null) throw bad("unexpected end of document");
  return root;
}

function findTagEnd(text: string, from: number): number {
  let quote = "";
  for (let j = from + 1; j < text.length; j++) {
    const ch = text[j];
    if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ">") return j;
  }
  throw bad("unterminated tag");
}

/** The element children of `el`, optionally only those named `name` in `ns`. */
export function childElements(el: XmlElement, ns?: string, name?: string): XmlElement[] {
  return el.children.filter((c): c is XmlElement =>
    typeof c !== "string" && (ns === undefined || c.ns === ns) && (name === undefined || c.name === name)
  );
}

/** The first child element named `name` in the DAV namespace, or null. */
export function davChild(el: XmlElement, name: string): XmlElement | null {
  return childElements(el, DAV_NS, name)[0] ?? null;
}

/** Escapes text for element content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(
    /[&<>"]/g,
    (c) => c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&quot;",
  );
}

/** Escapes text for element content only (`"` stays as it is: shorter, and only attribute values need it). */
export function escapeText(s: string): string {
  return /[&<>]/.test(s) ? s.replace(/[&<>]/g, (c) => c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;") : s;
}

/**
 * Serialises an element with every namespace declared on the element that uses it, so the fragment stands
 * alone (dead property values are stored this way and returned inside any multistatus).
 */
export function serializeElement(el: XmlElement, inherited = ""): string {
  const decl = el.ns !== inherited ? ` xmlns="${escapeXml(el.ns)}"` : "";
  let attrs = "";
  let n = 0;
  for (const [k, v] of el.attrs) {
    const sp = k.indexOf(" ");
    if (sp < 0) attrs += ` ${k}="${escapeXml(v)}"`;
    else attrs += ` xmlns:a${n}="${escapeXml(k.slice(0, sp))}" a${n++}:${k.slice(sp + 1)}="${escapeXml(v)}"`;
  }
  const inner = serializeChildren(el, el.ns);
  return `<${el.name}${decl}${attrs}${inner ? `>${inner}</${el.name}>` : "/>"}`;
}

/** Serialises the children of an element (see {@link serializeElement}). */
export function serializeChildren(el: XmlElement, inherited: string): string {
  return el.children.map((c) => typeof c === "string" ? escapeXml(c) : serializeElement(c, inherited)).join(
    "",
  );
}

/** The text content of an element (its text children joined). */
export function textOf(el: XmlElement): string {
  return el.children.map((c) => typeof c === "string" ? c : textOf(c)).join("");
}

/** Reads a request body as XML; null when it is empty. 400 when it is malformed, 413 when too large. */
export async function readXmlBody(req: Request): Promise<XmlElement | null> {
  const buf = await readLimited(req, MAX_XML_BYTES);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(buf);
  } catch {
    throw bad("not UTF-8");
  }
  if (!text.trim()) return null;
  return parseXml(text.replace(/^\uFEFF/, ""));
}

/** Reads at most `limit` bytes of a body (413 past that) without buffering more. */
export async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array(0);
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of req.body) {
    size += part.length;
    if (size > limit) throw new PayloadTooLargeError("body_too_large");
    parts.push(part);
  }
  const out = new Uint8Array(size);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
