/**
 * The XML of PROPFIND, PROPPATCH and LOCK answers: DAV is the default namespace (no prefixes), and what the
 * client stored (dead properties, lock owners) keeps its own namespace inside it, also no namespace at all.
 */
import assert from "node:assert/strict";
import { TEST_PASSWORD, type TestApp, testApp } from "../_helpers.ts";
import { DAV_NS, parseXml, textOf, type XmlElement } from "../../lib/webdav/xml.ts";
import { basic } from "./_dav.ts";

const AUTH = { Authorization: basic("admin", TEST_PASSWORD) };

function dav(
  t: TestApp,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string },
) {
  return t.app.request(`http://localhost${path}`, {
    method,
    headers: { ...AUTH, ...init.headers },
    body: init.body,
  });
}

function elements(el: XmlElement): XmlElement[] {
  return [el, ...el.children.flatMap((c) => typeof c === "string" ? [] : elements(c))];
}

function find(root: XmlElement, ns: string, name: string): XmlElement[] {
  return elements(root).filter((e) => e.ns === ns && e.name === name);
}

Deno.test("PROPFIND answers use DAV as the default namespace; stored fragments keep theirs, none included", async () => {
  const t = await testApp({ config: { webdav: true } });
  try {
    await Deno.mkdir(`${t.root}/d`);
    await Deno.writeTextFile(`${t.root}/d/a "q" & <b>.txt`, "hello");
    await Deno.writeTextFile(`${t.root}/d/b.txt`, "b");
    const patch = await dav(t, "PROPPATCH", "/dav/d/b.txt", {
      body: '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop>' +
        '<x:color xmlns:x="urn:t">red</x:color><plain xmlns="">v<inner>w</inner></plain>' +
        "</D:prop></D:set></D:propertyupdate>",
    });
    assert.equal(patch.status, 207);
    const patched = parseXml(await patch.text());
    assert.equal(patched.ns, DAV_NS);
    assert.equal(patched.name, "multistatus");
    assert.equal(
      find(patched, "", "plain").length,
      1,
      "the PROPPATCH answer names the null-namespace property",
    );
    const lock = await dav(t, "LOCK", "/dav/d/b.txt", {
      body: '<?xml version="1.0"?><lockinfo xmlns="DAV:"><lockscope><exclusive/></lockscope>' +
        '<locktype><write/></locktype><owner><who xmlns="">me</who><href>http://me/</href></owner></lockinfo>',
    });
    assert.equal(lock.status, 200);
    const locked = parseXml(await lock.text());
    assert.equal(locked.ns, DAV_NS);
    assert.equal(find(locked, "", "who").length, 1, "the owner's null-namespace element in the LOCK answer");
    assert.equal(find(locked, DAV_NS, "who").length, 0);

    const res = await dav(t, "PROPFIND", "/dav/d/", { headers: { Depth: "1" } });
    assert.equal(res.status, 207);
    const text = await res.text();
    assert.ok(!text.includes("D:"), "no prefixes");
    const doc = parseXml(text);
    assert.equal(doc.ns, DAV_NS);
    assert.equal(doc.name, "multistatus");
    const responses = find(doc, DAV_NS, "response");
    assert.equal(responses.length, 3);
    const hrefs = responses.map((r) => textOf(find(r, DAV_NS, "href")[0]));
    assert.ok(hrefs.includes("/dav/d/a%20%22q%22%20%26%20%3Cb%3E.txt"), hrefs.join(" "));
    assert.ok(find(doc, DAV_NS, "displayname").some((e) => textOf(e) === 'a "q" & <b>.txt'));
    assert.ok(find(doc, DAV_NS, "getetag").every((e) => /^"[0-9a-f]+-[0-9a-f]+"$/.test(textOf(e))));
    // The dead properties of b.txt: one in urn:t, one in no namespace (with a child in none either).
    assert.equal(textOf(find(doc, "urn:t", "color")[0]), "red");
    const plain = find(doc, "", "plain");
    assert.equal(plain.length, 1);
    assert.equal(find(plain[0], "", "inner").length, 1);
    assert.equal(find(doc, DAV_NS, "plain").length + find(doc, DAV_NS, "inner").length, 0);
    // The lock's owner inside lockdiscovery.
    assert.equal(find(doc, DAV_NS, "activelock").length, 1);
    assert.equal(textOf(find(doc, "", "who")[0]), "me");
    assert.equal(textOf(find(find(doc, DAV_NS, "owner")[0], DAV_NS, "href")[0]), "http://me/");

    // propname and a prop request naming a missing null-namespace property.
    const names = parseXml(
      await (await dav(t, "PROPFIND", "/dav/d/b.txt", {
        headers: { Depth: "0" },
        body: '<?xml version="1.0"?><propfind xmlns="DAV:"><propname/></propfind>',
      })).text(),
    );
    assert.equal(find(names, "", "plain").length, 1);
    assert.equal(find(names, DAV_NS, "getetag").length, 1);
    const missing = parseXml(
      await (await dav(t, "PROPFIND", "/dav/d/b.txt", {
        headers: { Depth: "0" },
        body:
          '<?xml version="1.0"?><propfind xmlns="DAV:"><prop><nothere xmlns=""/><plain xmlns=""/></prop>' +
          "</propfind>",
      })).text(),
    );
    const [ok, notFound] = find(missing, DAV_NS, "propstat");
    assert.equal(textOf(find(ok, DAV_NS, "status")[0]), "HTTP/1.1 200 OK");
    assert.equal(textOf(find(find(ok, "", "plain")[0], "", "inner")[0]), "w");
    assert.equal(textOf(find(notFound, DAV_NS, "status")[0]), "HTTP/1.1 404 Not Found");
    assert.equal(find(notFound, "", "nothere").length, 1);

    // Namespaces of a prop list are declared once on the multistatus; the 404 list keeps each in its own.
    const listText = await (await dav(t, "PROPFIND", "/dav/d/", {
      headers: { Depth: "1" },
      body: '<?xml version="1.0"?><propfind xmlns="DAV:" xmlns:x="urn:x"><prop><x:a/><y:b xmlns:y="urn:y"/>' +
        '<x:c/><displayname/><d xmlns=""/><x:color xmlns:x="urn:t"/></prop></propfind>',
    })).text();
    assert.match(
      listText,
      /^<\?xml[^>]*>\n<multistatus xmlns="DAV:" xmlns:a0="urn:x" xmlns:a1="urn:y" xmlns:a2="urn:t">/,
    );
    const list = parseXml(listText);
    for (const r of find(list, DAV_NS, "response")) {
      const href = textOf(find(r, DAV_NS, "href")[0]);
      const [okStat, lost] = find(r, DAV_NS, "propstat");
      assert.equal(find(okStat, DAV_NS, "displayname").length, 1, href);
      const names = elements(lost).filter((e) =>
        !(e.ns === DAV_NS && ["propstat", "prop", "status"].includes(e.name))
      )
        .map((e) => `{${e.ns}}${e.name}`);
      const color = href.endsWith("/b.txt") ? [] : ["{urn:t}color"];
      assert.deepEqual(names, ["{urn:x}a", "{urn:y}b", "{urn:x}c", "{}d", ...color], href);
    }
    assert.equal(textOf(find(list, "urn:t", "color").find((e) => textOf(e) === "red")!), "red");
  } finally {
    await t.close();
  }
});
