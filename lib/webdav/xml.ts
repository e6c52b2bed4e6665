/**
 * A small namespace-aware XML reader and writer for WebDAV request and response bodies. It parses elements,
 * attributes, text and CDATA, resolves prefixes, and rejects what is malformed (unbalanced tags, unknown
 * prefixes, an empty prefixed namespace, DTDs). Entities other than the five predefined ones and numeric
 * references are refused, so no entity expansion can blow up.
 *
 * Parsing is linear in the size of the body: each prefix keeps a stack of its bindings, pushed where an element
 * declares it and popped where that element ends, so resolving a name is one lookup whatever the depth and the
 * number of declarations in scope. Caps on depth, on the markup of a document and on the attributes of an
 * element bound what a hostile body can make the server build (docs/security.md#webdav-request-bodies).
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
/** Deepest accepted nesting of elements. */
export const MAX_XML_DEPTH = 64;
/** Most markup one document may hold: elements, comments, processing instructions and CDATA sections. */
export const MAX_XML_NODES = 10_000;
/** Most attributes of one element, namespace declarations included. */
export const MAX_XML_ATTRS = 64;
/** Most namespace declarations of one document. */
export const MAX_XML_DECLARATIONS = 1_024;

const XML_NS = "http://www.w3.org/XML/1998/namespace";
const NAME =
  /^[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?$/;
// Start tags are read in place with sticky patterns: the name, then attributes until the tag's end.
const TAG_NAME = /[^\s/>]+/y;
const ATTR = /\s+([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const TAG_END = /\s*(\/?)>/y;

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

/** An open element: its qualified name, and the prefixes it declared (popped when it ends). */
interface Frame {
  el: XmlElement;
  qname: string;
  declared: string[];
}

/** A start tag read from the text: its name, its attributes in order, where it ends and whether it closes itself. */
interface StartTag {
  qname: string;
  attrs: Map<string, string>;
  selfClosing: boolean;
  end: number;
}

/** Reads the start tag at `lt` (a "<" followed by a name); 400 when malformed, unterminated or past the caps. */
function readStartTag(text: string, lt: number): StartTag {
  TAG_NAME.lastIndex = lt + 1;
  const name = TAG_NAME.exec(text);
  if (name === null || !NAME.test(name[0])) throw bad("bad element name");
  const attrs = new Map<string, string>();
  let i = TAG_NAME.lastIndex;
  for (;;) {
    TAG_END.lastIndex = i;
    const end = TAG_END.exec(text);
    if (end !== null) return { qname: name[0], attrs, selfClosing: end[1] === "/", end: TAG_END.lastIndex };
    ATTR.lastIndex = i;
    const m = ATTR.exec(text);
    if (m === null) throw bad(i >= text.length ? "unterminated tag" : "malformed attribute");
    if (!NAME.test(m[1]) && !m[1].startsWith("xmlns")) throw bad("malformed attribute");
    if (attrs.has(m[1])) throw bad("duplicate attribute");
    if (attrs.size >= MAX_XML_ATTRS) throw bad(`more than ${MAX_XML_ATTRS} attributes on an element`);
    attrs.set(m[1], decodeEntities(m[2] ?? m[3] ?? ""));
    i = ATTR.lastIndex;
  }
}

/**
 * The namespaces in scope: a stack of bindings per prefix ("" is the default namespace), the innermost last.
 * Each declaration is pushed once and popped once, so a document costs time in proportion to its length.
 */
class Namespaces {
  #bindings = new Map<string, string[]>();
  #count = 0;

  declare(prefix: string, ns: string): void {
    if (++this.#count > MAX_XML_DECLARATIONS) {
      throw bad(`more than ${MAX_XML_DECLARATIONS} namespace declarations`);
    }
    const stack = this.#bindings.get(prefix);
    if (stack) stack.push(ns);
    else this.#bindings.set(prefix, [ns]);
  }

  undeclare(prefixes: readonly string[]): void {
    for (const prefix of prefixes) this.#bindings.get(prefix)!.pop();
  }

  lookup(prefix: string): string | undefined {
    const stack = this.#bindings.get(prefix);
    return stack?.[stack.length - 1];
  }

  /** The namespace and local name of an element (`isAttr`: an attribute, which no default namespace reaches). */
  resolve(qname: string, isAttr = false): { ns: string; name: string } {
    const i = qname.indexOf(":");
    if (i < 0) return { ns: isAttr ? "" : this.lookup("") ?? "", name: qname };
    const prefix = qname.slice(0, i);
    const ns = prefix === "xml" ? XML_NS : this.lookup(prefix);
    if (ns === undefined) throw bad(`unknown prefix "${prefix}"`);
    return { ns, name: qname.slice(i + 1) };
  }
}

/** Parses a document and returns its root element; throws 400 on anything malformed or past the caps. */
export function parseXml(text: string): XmlElement {
  const stack: Frame[] = [];
  const scope = new Namespaces();
  let root: XmlElement | null = null;
  let nodes = 0;
  let i = 0;
  const top = () => stack[stack.length - 1];
  const count = () => {
    if (++nodes > MAX_XML_NODES) throw bad(`more than ${MAX_XML_NODES} elements`);
  };
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    const chunk = lt < 0 ? text.slice(i) : text.slice(i, lt);
    if (chunk) {
      if (stack.length) top().el.children.push(decodeEntities(chunk));
      else if (chunk.trim()) throw bad("text outside the root element");
    }
    if (lt < 0) break;
    // End tags close what was counted.
    if (text.charCodeAt(lt + 1) !== 0x2f) count();
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
      scope.undeclare(frame.declared);
      i = end + 1;
    } else {
      const tag = readStartTag(text, lt);
      if (root !== null && !stack.length) throw bad("more than one root element");
      if (stack.length >= MAX_XML_DEPTH) throw bad("nested too deeply");
      const declared: string[] = [];
      for (const [k, v] of tag.attrs) {
        if (k === "xmlns") {
          scope.declare("", v);
          declared.push("");
        } else if (k.startsWith("xmlns:")) {
          if (v === "") throw bad("empty namespace for a prefix");
          scope.declare(k.slice(6), v);
          declared.push(k.slice(6));
        }
      }
      const { ns, name } = scope.resolve(tag.qname);
      const plain = new Map<string, string>();
      for (const [k, v] of tag.attrs) {
        if (k === "xmlns" || k.startsWith("xmlns:")) continue;
        const a = scope.resolve(k, true);
        const key = a.ns ? `${a.ns} ${a.name}` : a.name;
        if (plain.has(key)) throw bad("duplicate attribute");
        plain.set(key, v);
      }
      const el: XmlElement = { ns, name, attrs: plain, children: [] };
      if (stack.length) top().el.children.push(el);
      else root = el;
      if (tag.selfClosing) scope.undeclare(declared);
      else stack.push({ el, qname: tag.qname, declared });
      i = tag.end;
    }
  }
  if (stack.length || root === null) throw bad("unexpected end of document");
  return root;
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

/**
 * Reads a request body as text for {@link parseXml}, without its byte order mark; null when it is empty. 400
 * when it is not UTF-8, 413 when too large. Methods that need a permission check it between the two.
 */
export async function readXmlText(req: Request): Promise<string | null> {
  const buf = await readLimited(req, MAX_XML_BYTES);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(buf);
  } catch {
    throw bad("not UTF-8");
  }
  return text.trim() ? text.replace(/^\uFEFF/, "") : null;
}

/** Parses a body read by {@link readXmlText}; null stays null (no body). */
export function parseXmlBody(text: string | null): XmlElement | null {
  return text === null ? null : parseXml(text);
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
