import assert from "node:assert/strict";
import { countInterrupted } from "./resume.ts";

function storageOf(keys: string[]): Pick<Storage, "key" | "length"> {
  return { length: keys.length, key: (i: number) => keys[i] ?? null };
}

Deno.test("countInterrupted counts the tus records only", () => {
  const cases: [string[], number][] = [
    [[], 0],
    [["theme", "fb.view"], 0],
    [["tus::fp-a::1"], 1],
    [["tus::fp-a::1", "x", "tus::fp-b::2", "tus:"], 2],
    [["TUS::fp::1", " tus::fp::1"], 0],
  ];
  for (const [keys, want] of cases) assert.equal(countInterrupted(storageOf(keys)), want, keys.join(","));
});
