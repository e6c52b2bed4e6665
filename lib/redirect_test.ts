import assert from "node:assert/strict";
import { DEFAULT_REDIRECT, safeRedirect } from "./redirect.ts";
import { REDIRECT_BYPASSES } from "../tests/fixtures/redirect_bypasses.ts";

/** Bypass forms that only matter with a base URL. */
const BASE_BYPASSES: string[] = [
  "/../evil",
  "/..",
  "/%2e%2e/evil",
  "/./../evil",
  "/files/../../evil",
  "/files/%2e%2e/%2E%2E/evil",
];

Deno.test("safeRedirect() falls back to /files/ for every open-redirect bypass form", () => {
  for (const value of REDIRECT_BYPASSES) {
    for (const baseUrl of ["", "/fb"]) {
      const out = safeRedirect(value, { baseUrl });
      // A bypass either falls back or stays a same-origin path (e.g. a unicode slash is just a character).
      const target = new URL(baseUrl + out, "https://good.example");
      assert.equal(target.origin, "https://good.example", `${JSON.stringify(value)} → ${out}`);
      assert.ok(out.startsWith("/") && !out.startsWith("//"), `${JSON.stringify(value)} → ${out}`);
      assert.ok(!/[\\\s]/.test(out), `${JSON.stringify(value)} → ${JSON.stringify(out)}`);
    }
  }
});

Deno.test("safeRedirect() refuses paths that leave the base URL", () => {
  for (const value of BASE_BYPASSES) {
    assert.equal(safeRedirect(value, { baseUrl: "/fb" }), DEFAULT_REDIRECT, value);
  }
});

Deno.test("safeRedirect() refuses control characters, backslashes and authorities outright", () => {
  // deno-lint-ignore no-control-regex -- control characters are what these forms smuggle
  const refused = REDIRECT_BYPASSES.filter((v) => !/^\/[^/\\\s\x00-\x1f\x7f-\x9f]/.test(v));
  for (const value of refused) assert.equal(safeRedirect(value, { baseUrl: "" }), DEFAULT_REDIRECT, value);
  assert.ok(refused.length >= 30, `${refused.length} forms refused outright`);
});

Deno.test("safeRedirect() keeps ordinary paths with query and fragment, normalised", () => {
  const cases: [string, string][] = [
    ["/files/", "/files/"],
    ["/files/a%20b/?x=1", "/files/a%20b/?x=1"],
    ["/files/docs/#top", "/files/docs/#top"],
    ["/settings/profile", "/settings/profile"],
    ["/files/%2f%2fevil.example", "/files/%2f%2fevil.example"],
    ["/%2f%2fevil.example", "/%2f%2fevil.example"],
    ["/@evil.example", "/@evil.example"],
    ["/files/../settings", "/settings"],
    ["/files/\u00e9t\u00e9", "/files/%C3%A9t%C3%A9"],
    ["/\u2215evil.example", "/%E2%88%95evil.example"],
    ["/\uff0fevil.example", "/%EF%BC%8Fevil.example"],
  ];
  for (const [value, expected] of cases) {
    assert.equal(safeRedirect(value, { baseUrl: "" }), expected, value);
    assert.equal(safeRedirect(value, { baseUrl: "/fb" }), expected, `${value} under /fb`);
  }
  assert.equal(safeRedirect(null, { baseUrl: "" }), DEFAULT_REDIRECT);
  assert.equal(safeRedirect(undefined, { baseUrl: "" }), DEFAULT_REDIRECT);
  assert.equal(safeRedirect("/files/" + "a".repeat(5000), { baseUrl: "" }), DEFAULT_REDIRECT);
});

Deno.test("safeRedirect() resolves against the page's origin in the browser", () => {
  assert.equal(safeRedirect("/files/x", { baseUrl: "", origin: "https://good.example" }), "/files/x");
  assert.equal(safeRedirect("//evil.example", { baseUrl: "", origin: "https://good.example" }), "/files/");
});
