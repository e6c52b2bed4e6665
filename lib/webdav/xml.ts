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
  declared: readonly string[];
}

/** XML white space: space, tab, line feed, carriage return. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** The end of a name starting at `i`: the first white space, "=", "/" or ">" (or the end of the text). */
function nameEnd(text: string, i: number): number {
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c) || c === 0x3d || c === 0x2f || c === 0x3e) break;
  }
  return i;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/**
 * A start tag read from the text, in place (no slice of the tag, no match objects): its name, its attributes in
 * order, where it ends and whether it closes itself. One instance is reused tag after tag; parsing is synchronous.
 */
class StartTag {
  qname = "";
  names: string[] = [];
  values: string[] = [];
  selfClosing = false;
  end = 0;
  #seen = new Set<string>();

  /** Reads the start tag at `lt` (a "<" then a name); 400 when malformed, unterminated or past the caps. */
  read(text: string, lt: number): void {
    let i = nameEnd(text, lt + 1);
    this.qname = text.slice(lt + 1, i);
    if (!NAME.test(this.qname)) throw bad("bad element name");
    this.names.length = 0;
    this.values.length = 0;
    this.#seen.clear();
    for (;;) {
      const spaced = i;
      i = skipSpace(text, i);
      if (i >= text.length) throw bad("unterminated tag");
      const c = text.charCodeAt(i);
      if (c === 0x3e || c === 0x2f) {
        this.selfClosing = c === 0x2f;
        if (this.selfClosing && text.charCodeAt(++i) !== 0x3e) throw bad("malformed tag");
        this.end = i + 1;
        return;
      }
      // Attributes are separated by white space.
      if (i === spaced) throw bad("malformed attribute");
      const start = i;
      i = nameEnd(text, i);
      const name = text.slice(start, i);
      i = skipSpace(text, i);
      if (text.charCodeAt(i) !== 0x3d) {
        throw bad(i >= text.length ? "unterminated tag" : "malformed attribute");
      }
      i = skipSpace(text, i + 1);
      const quote = text.charCodeAt(i);
      if (quote !== 0x22 && quote !== 0x27) {
        throw bad(i >= text.length ? "unterminated tag" : "malformed attribute");
      }
      const close = text.indexOf(quote === 0x22 ? '"' : "'", i + 1);
      if (close < 0) throw bad("unterminated tag");
      if (!NAME.test(name)) throw bad("malformed attribute");
      if (this.#seen.has(name)) throw bad("duplicate attribute");
      if (this.names.length >= MAX_XML_ATTRS) {
        throw bad(`more than ${MAX_XML_ATTRS} attributes on an element`);
      }
      this.#seen.add(name);
      this.names.push(name);
      this.values.push(decodeEntities(text.slice(i + 1, close)));
      i = close + 1;
    }
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

  /** The namespace of a qualified name (`isAttr`: an attribute, which no default namespace reaches). */
  resolve(qname: string, isAttr = false): string {
    const i = qname.indexOf(":");
    if (i < 0) return isAttr ? "" : this.lookup("") ?? "";
    const prefix = qname.slice(0, i);
    const ns = prefix === "xml" ? XML_NS : this.lookup(prefix);
    if (ns === undefined) throw bad(`unknown prefix "${prefix}"`);
    return ns;
  }
}

/** The local part of a qualified name. */
function localName(qname: string): string {
  const i = qname.indexOf(":");
  return i < 0 ? qname : qname.slice(i + 1);
}

/** No declarations: shared by every element that makes none. */
const NONE: readonly string[] = [];

/** Parses a document and returns its root element; throws 400 on anything malformed or past the caps. */
export function parseXml(text: string): XmlElement {
  const stack: Frame[] = [];
  const scope = new Namespaces();
  const tag = new StartTag();
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
      tag.read(text, lt);
      if (root !== null && !stack.length) throw bad("more than one root element");
      if (stack.length >= MAX_XML_DEPTH) throw bad("nested too deeply");
      const { names, values } = tag;
      let declared: string[] | null = null;
      for (let k = 0; k < names.length; k++) {
        const name = names[k];
        if (name === "xmlns") {
          scope.declare("", values[k]);
          (declared ??= []).push("");
        } else if (name.startsWith("xmlns:")) {
          if (values[k] === "") throw bad("empty namespace for a prefix");
          scope.declare(name.slice(6), values[k]);
          (declared ??= []).push(name.slice(6));
        }
      }
      const attrs = new Map<string, string>();
      for (let k = 0; k < names.length; k++) {
        const name = names[k];
        if (name === "xmlns" || name.startsWith("xmlns:")) continue;
        const ns = scope.resolve(name, true);
        const key = ns ? `${ns} ${localName(name)}` : name;
        if (attrs.has(key)) throw bad("duplicate attribute");
        attrs.set(key, values[k]);
      }
      const el: XmlElement = {
        ns: scope.resolve(tag.qname),
        name: localName(tag.qname),
        attrs,
        children: [],
      };
      if (stack.length) top().el.children.push(el);
      else root = el;
      if (tag.selfClosing) {
        if (declared) scope.undeclare(declared);
      } else stack.push({ el, qname: tag.qname, declared: declared ?? NONE });
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
