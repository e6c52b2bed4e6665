import assert from "node:assert/strict";
import { BadRequestError } from "../errors.ts";
import {
  childElements,
  DAV_NS,
  MAX_XML_ATTRS,
  MAX_XML_DECLARATIONS,
  MAX_XML_DEPTH,
  MAX_XML_NODES,
  parseXml,
  serializeElement,
  textOf,
} from "./xml.ts";
import { hostileXml } from "../../tests/fixtures/hostile_xml.ts";

Deno.test("parseXml() resolves prefixes and default namespaces", () => {
  const root = parseXml(
    '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns="urn:x"><D:prop><a/><b xmlns=""/><D:getetag/></D:prop></D:propfind>',
  );
  assert.equal(root.ns, DAV_NS);
  assert.equal(root.name, "propfind");
  const props = childElements(childElements(root)[0]).map((e) => `{${e.ns}}${e.name}`);
  assert.deepEqual(props, ["{urn:x}a", "{}b", "{DAV:}getetag"]);
});

Deno.test("parseXml() refuses malformed documents with 400", () => {
  const table = [
    "",
    "<a>",
    "<a></b>",
    "<a/><b/>",
    "<x:a/>",
    '<a xmlns:x=""/>',
    '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>',
    "<a>&bogus;</a>",
    "<a>& b</a>",
    '<a b="1" b="2"/>',
    "text<a/>",
    "<a>&#0;</a>",
    '<a b="1"c="2"/>',
    "<a b/>",
    "<a b=1/>",
    '<a b="1"',
    "<a / >",
    '<a b="1/>',
    "<a\u00A0b='1'/>",
    '<a xmlns:="urn:x"/>',
    '<a xmlns:p:q="urn:x"/>',
    "<" + "a>".repeat(1) + "<b>".repeat(100) + "</b>".repeat(100) + "</a>",
  ];
  for (const text of table) {
    assert.throws(() => parseXml(text), BadRequestError, JSON.stringify(text).slice(0, 40));
  }
});

Deno.test("serializeElement() keeps namespaces, attributes, entities and high Unicode", () => {
  const el = childElements(parseXml(
    '<r xmlns:z="urn:z"><z:p a="1&amp;2" z:q="v">x &lt; y \u{1F600}<z:c xmlns="urn:d"><d/></z:c><![CDATA[<raw>]]></z:p></r>',
  ))[0];
  const again = parseXml(serializeElement(el));
  assert.equal(again.ns, "urn:z");
  assert.equal(again.attrs.get("a"), "1&2");
  assert.equal(again.attrs.get("urn:z q"), "v");
  assert.equal(textOf(again), "x < y \u{1F600}<raw>");
  const c = childElements(again)[0];
  assert.equal(c.ns, "urn:z");
  assert.equal(childElements(c)[0].ns, "urn:d");
});

Deno.test("parseXml() scopes declarations to their element: shadowed inside, restored after, never leaked", () => {
  const root = parseXml(
    '<r xmlns="urn:d" xmlns:p="urn:1"><p:a xmlns:p="urn:2"><p:b/></p:a><p:c/>' +
      '<x xmlns:q="urn:q" q:at="1"/><y xmlns=""><z/></y><w/></r>',
  );
  const [a, c, x, y, w] = childElements(root);
  assert.equal(a.ns, "urn:2");
  assert.equal(childElements(a)[0].ns, "urn:2");
  assert.equal(c.ns, "urn:1", "the outer binding is back once the shadowing element ended");
  assert.equal(x.attrs.get("urn:q at"), "1");
  assert.equal(y.ns, "");
  assert.equal(childElements(y)[0].ns, "");
  assert.equal(w.ns, "urn:d");
  // A prefix declared on a self-closing sibling is gone after it.
  assert.throws(() => parseXml('<r><a xmlns:q="urn:q"/><q:b/></r>'), BadRequestError);
  // Two attributes that expand to the same name are one attribute twice.
  assert.throws(
    () => parseXml('<r xmlns:a="urn:x" xmlns:b="urn:x"><e a:n="1" b:n="2"/></r>'),
    BadRequestError,
  );
});

Deno.test("parseXml() reads start tags: spacing around =, either quote, > and / inside values", () => {
  const el = parseXml("<a\tb = 'x>y'\n c=\"q'/\" \r\n/>");
  assert.equal(el.attrs.get("b"), "x>y");
  assert.equal(el.attrs.get("c"), "q'/");
  assert.equal(parseXml("<a   ></a>").name, "a");
  assert.equal(childElements(parseXml("<r><a/><b /></r>")).length, 2);
});

Deno.test("parseXml() accepts documents up to its caps", () => {
  const nested = (n: number) => "<a>".repeat(n) + "</a>".repeat(n);
  assert.equal(parseXml(nested(MAX_XML_DEPTH)).name, "a");
  assert.equal(
    childElements(parseXml(`<r>${"<a/>".repeat(MAX_XML_NODES - 1)}</r>`)).length,
    MAX_XML_NODES - 1,
  );
  let attrs = "";
  for (let i = 0; i < MAX_XML_ATTRS; i++) attrs += ` a${i}="${i}"`;
  assert.equal(parseXml(`<r${attrs}/>`).attrs.size, MAX_XML_ATTRS);
  // 1,024 declarations: 16 nested elements of 64 each, every prefix usable below them.
  let open = "", close = "";
  for (let d = 0; d < 16; d++) {
    let decl = "";
    for (let i = d * 64; i < d * 64 + 64; i++) decl += ` xmlns:p${i}="urn:${i}"`;
    open += `<e${d}${decl}>`;
    close = `</e${d}>` + close;
  }
  assert.equal(MAX_XML_DECLARATIONS, 1024);
  const deep = parseXml(`${open}<p1023:x p0:y="1"/>${close}`);
  let leaf = deep;
  while (childElements(leaf).length) leaf = childElements(leaf)[0];
  assert.equal(leaf.ns, "urn:1023");
  assert.equal(leaf.attrs.get("urn:0 y"), "1");
});

Deno.test("parseXml() refuses hostile documents with 400 within milliseconds", () => {
  for (const [name, text, why] of hostileXml()) {
    const t0 = performance.now();
    assert.throws(() => parseXml(text), (err: unknown) => {
      assert.ok(err instanceof BadRequestError, name);
      assert.equal(err.status, 400, name);
      assert.match(err.message, why, name);
      return true;
    });
    const ms = performance.now() - t0;
    // A liveness bound (the old parser took 13 s to minutes on the worst of these); figures: bench/webdav_xml.ts.
    assert.ok(ms < 5000, `${name}: ${ms.toFixed(0)} ms`);
  }
});
