import assert from "node:assert/strict";
import { shareBody, sortShares } from "./share.ts";
import type { NewShare } from "./share.ts";
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

Deno.test("shareBody(): the password is optional and trimmed; no time means permanent", () => {
  const form = (patch: Partial<NewShare>): NewShare => ({
    expires: "",
    unit: "hours",
    password: "",
    custom: false,
    customLink: "a.txt",
    ...patch,
  });
  const cases: [Partial<NewShare>, Record<string, unknown>][] = [
    [{}, {}],
    [{ password: "   " }, {}],
    [{ password: "  s3cret pass \n" }, { password: "s3cret pass" }],
    [{ expires: " 2 ", unit: "days" }, { expires: "2", unit: "days" }],
    [{ custom: true, customLink: " my-link " }, { custom: true, customLink: "my-link" }],
  ];
  for (const [patch, body] of cases) assert.deepEqual(shareBody(form(patch)), body, JSON.stringify(patch));
});
