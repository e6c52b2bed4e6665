import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { decodeText, guessDelimiter, parseCsv } from "./csv.ts";

Deno.test("parseCsv() splits plain rows and ignores the trailing newline", () => {
  deepStrictEqual(parseCsv("a,b,c\n1,2,3\n").rows, [["a", "b", "c"], ["1", "2", "3"]]);
});

Deno.test("parseCsv() keeps delimiters, newlines and doubled quotes inside quoted fields", () => {
  const text = 'name,note\r\n"Smith, J.","said ""hi""\r\nthen left"\r\nx,\n';
  deepStrictEqual(parseCsv(text).rows, [
    ["name", "note"],
    ["Smith, J.", 'said "hi"\r\nthen left'],
    ["x", ""],
  ]);
});

Deno.test("parseCsv() keeps empty fields and a last row without newline", () => {
  deepStrictEqual(parseCsv(",,\na").rows, [["", "", ""], ["a"]]);
});

Deno.test("parseCsv() stops at maxRows and says so", () => {
  const t = parseCsv("1\n2\n3\n4\n", { maxRows: 2 });
  deepStrictEqual(t.rows, [["1"], ["2"]]);
  strictEqual(t.truncated, true);
  strictEqual(parseCsv("1\n2\n", { maxRows: 2 }).truncated, false);
});

Deno.test("guessDelimiter() picks the most frequent delimiter outside quotes on the first line", () => {
  strictEqual(guessDelimiter("a;b;c\n1,2"), ";");
  strictEqual(guessDelimiter('"a,b,c";d\n'), ";");
  strictEqual(guessDelimiter("a\tb\n"), "\t");
  strictEqual(guessDelimiter("single"), ",");
});

Deno.test("decodeText() reads UTF-8 with a BOM, UTF-16 and falls back to Windows-1252", () => {
  strictEqual(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0xc3, 0xa9])), "hé");
  strictEqual(decodeText(new Uint8Array([0xff, 0xfe, 0x68, 0x00])), "h");
  strictEqual(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9])), "café");
});
