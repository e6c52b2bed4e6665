import assert from "node:assert/strict";
import { hasBidiControl, MAX_PATH_BYTES, newNameProblem, pathProblem, utf8Length } from "./names.ts";

Deno.test("newNameProblem() refuses control characters, separators, dot names and names over 255 bytes", () => {
  const cases: [string, string | null][] = [
    ["report.pdf", null],
    ["été 2024 ☀.txt", null],
    ["x\u2028y\u2029z", null],
    ["with space ", null],
    ["..hidden", null],
    ["", "empty"],
    [".", "dot"],
    ["..", "dot"],
    ["a\u0000b", "control"],
    ["a\nb", "control"],
    ["a\rb", "control"],
    ["a\tb", "control"],
    ["\u001b[0m", "control"],
    ["del\u007f", "control"],
    ["c1\u0080", "control"],
    ["c1\u0085", "control"],
    ["c1\u009f", "control"],
    ["\u00a0nbsp", null],
    ["a/b", "separator"],
    ["a\\b", "separator"],
    ["n".repeat(255), null],
    ["n".repeat(256), "too_long"],
    ["é".repeat(127), null],
    ["é".repeat(128), "too_long"],
    ["😀".repeat(63) + "abc", null],
    ["😀".repeat(64), "too_long"],
  ];
  for (const [name, want] of cases) assert.equal(newNameProblem(name), want, JSON.stringify(name));
});

Deno.test("newNameProblem() refuses every bidirectional control, and right-to-left text is fine", () => {
  // U+202A-202E embeddings and overrides, U+2066-2069 isolates, U+200E/200F and U+061C marks.
  const controls = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c";
  for (const ch of controls) {
    const c = ch.charCodeAt(0);
    assert.equal(newNameProblem(`invoice${ch}txt.exe`), "bidi", c.toString(16));
    assert.equal(newNameProblem(ch), "bidi", c.toString(16));
    assert.equal(hasBidiControl(`a${ch}`), true, c.toString(16));
  }
  // Their neighbours are ordinary characters: zero-width joiners, the Arabic letters, Hebrew.
  for (
    const name of [
      "a\u200db",
      "a\u200cb",
      "\u2065",
      "\u206a",
      "\u2029x",
      "\u061b",
      "\u061d",
      "שלום.txt",
      "مرحبا.txt",
    ]
  ) {
    assert.equal(newNameProblem(name), null, JSON.stringify(name));
  }
});

Deno.test("utf8Length() counts UTF-8 bytes like TextEncoder, lone surrogates as U+FFFD", () => {
  for (const s of ["", "abc", "é", "€", "😀", "a😀b", "\ud800", "x\udc00y", "\ud800\ud800"]) {
    assert.equal(utf8Length(s), new TextEncoder().encode(s).length, JSON.stringify(s));
  }
  assert.ok(utf8Length("x".repeat(1_000_000), 10) <= 12, "stops early past the limit");
});

Deno.test("pathProblem() finds NUL bytes, names over 255 bytes and paths over PATH_MAX", () => {
  assert.equal(pathProblem("/docs/a.txt"), null);
  assert.equal(pathProblem("/a\nb/\u2028"), null);
  assert.equal(pathProblem("/a\0b"), "nul");
  assert.equal(pathProblem("/" + "n".repeat(256)), "name_too_long");
  assert.equal(pathProblem(("/" + "d".repeat(255)).repeat(15)), null);
  assert.equal(pathProblem("/" + "d".repeat(MAX_PATH_BYTES - 1)), "name_too_long");
  assert.equal(pathProblem(("/" + "d".repeat(200)).repeat(20) + "/" + "e".repeat(74)), null);
  assert.equal(pathProblem(("/" + "d".repeat(200)).repeat(20) + "/" + "e".repeat(75)), "path_too_long");
});
