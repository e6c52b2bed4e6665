import assert from "node:assert/strict";
import { BadRequestError } from "../errors.ts";
import { evaluateIf, parseIf, submittedTokens } from "./conditions.ts";
import { createLock, newLockToken } from "./locks.ts";

Deno.test("parseIf() reads tagged and untagged lists", () => {
  const lists = parseIf('<http://h/dav/a> (<opaquelocktoken:1> ["etag"]) (Not <DAV:no-lock>)');
  assert.equal(lists.length, 2);
  assert.equal(lists[0].resource, "http://h/dav/a");
  assert.deepEqual(lists[0].conditions, [
    { not: false, token: "opaquelocktoken:1", etag: null },
    { not: false, token: null, etag: '"etag"' },
  ]);
  assert.deepEqual(lists[1].conditions, [{ not: true, token: "DAV:no-lock", etag: null }]);
  assert.deepEqual([...submittedTokens(lists)], ["opaquelocktoken:1", "DAV:no-lock"]);
});

Deno.test("parseIf() refuses malformed headers with 400", () => {
  for (const header of ["", "x", "(", "()", "(<a>", "(<a> [b)", "<a>", "(<a>) <b> (<c>)", "(Nope <a>)"]) {
    assert.throws(() => parseIf(header), BadRequestError, header);
  }
});

Deno.test("evaluateIf() matches lock tokens on covered resources, entity tags, and Not", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const now = 1000;
    const token = newLockToken();
    await createLock(kv, {
      token,
      segs: ["a"],
      root: "/dav/a/",
      depth: "infinity",
      scope: "exclusive",
      owner: "",
      userId: 1,
      timeout: 60,
      expires: now + 60_000,
    }, now);
    const state = (segs: string[] | null, etag: string | null) => () => Promise.resolve({ segs, etag });
    const cases: [string, string[] | null, string | null, boolean][] = [
      [`(<${token}>)`, ["a", "b"], null, true],
      [`(<${token}>)`, ["z"], null, false],
      [`(<${token}x>)`, ["a"], null, false],
      ["(<DAV:no-lock>)", ["a"], null, false],
      ["(Not <DAV:no-lock>)", ["a"], null, true],
      ['(["e1"])', ["a"], '"e1"', true],
      ['(["e1"])', ["a"], null, false],
      [`(<DAV:no-lock>) (<${token}> ["e1"])`, ["a"], '"e1"', true],
    ];
    for (const [header, segs, etag, want] of cases) {
      assert.equal(await evaluateIf(kv, parseIf(header), state(segs, etag), now), want, header);
    }
  } finally {
    kv.close();
  }
});
