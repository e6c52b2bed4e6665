import assert from "node:assert/strict";
import { sortShares } from "./share.ts";
import type { Share } from "../lib/types.ts";

function link(hash: string, path: string, extra: Partial<Share> = {}): Share {
  return { hash, path, userID: 1, expire: 0, hasPassword: false, ...extra };
}

Deno.test("sortShares() orders by path, then newest first, links without a date by expiry", () => {
  const list = [
    link("c", "/b.txt", { created: 10 }),
    link("a", "/a/", { created: 5 }),
    link("b", "/b.txt", { created: 20 }),
    link("d", "/a/", { created: 9 }),
    link("e", "/a/", { expire: 1 }),
  ];
  assert.deepEqual(sortShares(list).map((s) => s.hash), ["d", "a", "e", "b", "c"]);
  assert.equal(list[0].hash, "c", "the input is not reordered");
});
