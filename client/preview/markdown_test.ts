import { strictEqual } from "node:assert/strict";
import { isAbsoluteRef, neutralizeHandlers, resolveVpath } from "./markdown.ts";

Deno.test("resolveVpath() resolves relative references against the file's folder", () => {
  strictEqual(resolveVpath("/docs/guide/", "img/a.png"), "/docs/guide/img/a.png");
  strictEqual(resolveVpath("/docs/guide/", "../b%20c.md#top"), "/docs/b c.md");
  strictEqual(resolveVpath("/docs/", "../../../etc/passwd"), "/etc/passwd");
  strictEqual(resolveVpath("/docs/", "/root.md"), "/root.md");
  strictEqual(resolveVpath("/docs/", "sub/"), "/docs/sub/");
});

Deno.test("isAbsoluteRef() leaves URLs with a scheme, protocol-relative URLs and fragments alone", () => {
  strictEqual(isAbsoluteRef("https://example.org/x"), true);
  strictEqual(isAbsoluteRef("mailto:a@b"), true);
  strictEqual(isAbsoluteRef("javascript:alert(1)"), true);
  strictEqual(isAbsoluteRef("//host/x"), true);
  strictEqual(isAbsoluteRef("#anchor"), true);
  strictEqual(isAbsoluteRef("a/b.png"), false);
});

Deno.test("neutralizeHandlers() renames event handler attributes, also after a slash or a quote", () => {
  strictEqual(
    neutralizeHandlers(`<img src=x onerror="a()"><svg/onload=b()><a href='x'onclick=c()>`),
    `<img src=x data-blocked-onerror="a()"><svg/data-blocked-onload=b()><a href='x'data-blocked-onclick=c()>`,
  );
  strictEqual(neutralizeHandlers("<p>one = two</p>"), "<p>one = two</p>");
});
