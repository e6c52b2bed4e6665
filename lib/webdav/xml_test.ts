import assert from "node:assert/strict";
import { BadRequestError } from "../errors.ts";
import { childElements, DAV_NS, parseXml, serializeElement, textOf } from "./xml.ts";

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
