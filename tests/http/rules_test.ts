/** HTTP tests of regex rules: RE2 semantics (linear time) and validation that names the refused rule. */
import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import { shares, users } from "../../lib/storage/mod.ts";
import type { Rule } from "../../lib/types.ts";
import { captureLog } from "./_log.ts";

const REDOS = "^/(\\w+\\s?)*$";

function regex(raw: string, allow = false): Rule {
  return { regex: true, allow, path: "", regexp: { raw } };
}

Deno.test("PUT /api/settings refuses rules RE2 cannot compile with 400 naming the rule", async () => {
  const t = await testApp();
  try {
    const before = await (await t.request("/api/settings", { as: "admin" })).text();
    for (const raw of ["(a)\\1", "^/x(?=y)", "^/(?!public)", "(?<=a)b"]) {
      const body = JSON.stringify({ rules: [regex("(?i)\\.tmp$"), regex(raw)] });
      const res = await t.request("/api/settings", { method: "PUT", as: "admin", body });
      assert.equal(res.status, 400, raw);
      assert.match(res.headers.get("Content-Type") ?? "", /^text\/plain/);
      const text = await res.text();
      assert.match(text, /global rule 2/, text);
      assert.ok(text.includes(JSON.stringify(raw).slice(1, -1)) || text.includes(raw), text);
    }
    assert.equal(await (await t.request("/api/settings", { as: "admin" })).text(), before);
    const ok = JSON.stringify({ rules: [regex("(?i)\\.TMP$"), regex(REDOS)] });
    assert.equal((await t.request("/api/settings", { method: "PUT", as: "admin", body: ok })).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("PUT /api/users/{id} refuses a user rule RE2 cannot compile with 400 naming it", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  try {
    const id = t.users.alice.id;
    const res = await t.request(`/api/users/${id}`, {
      as: "admin",
      method: "PUT",
      body: JSON.stringify({
        what: "user",
        which: ["rules"],
        data: { id, rules: [regex("^/(?=secret)")] },
        current_password: TEST_PASSWORD,
      }),
    });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /user rule 1/);
    assert.deepEqual((await users.getUser(t.deps.kv, id)).rules, []);
  } finally {
    await t.close();
  }
});

Deno.test("a public-share visitor cannot freeze the server with a path against a backtracking-prone rule", async () => {
  const t = await testApp({
    // An allow rule (it matches the share root "/"), evaluated on every path the visitor asks for.
    settings: { rules: [regex(REDOS, true)] },
    users: [{ username: "owner", scope: "/home", perm: { share: true, download: true } }],
  });
  const log = captureLog();
  try {
    await Deno.writeTextFile(`${t.root}/home/x.txt`, "X");
    // A share of the owner's whole scope: the rule sees the visitor's path as it is.
    await shares.createShare(t.deps.kv, {
      hash: "redos001",
      path: "/",
      userID: t.users.owner.id,
      expire: 0,
      passwordHash: "",
      token: "",
    });
    assert.equal((await t.request("/api/public/share/redos001/x.txt")).status, 200);
    const timings: number[] = [];
    for (const n of [30, 254]) {
      const name = "a".repeat(n) + "!";
      const t0 = performance.now();
      const res = await t.request(`/api/public/share/redos001/${name}`);
      timings.push(performance.now() - t0);
      assert.equal(res.status, 404, `${n}`);
      await res.body?.cancel();
    }
    // A backtracking engine needs about 13 s for the 30-character name alone; generous bound for a loaded machine.
    assert.ok(timings.every((ms) => ms < 2000), timings.map((ms) => ms.toFixed(1)).join(", "));
    assert.deepEqual(log.errors(), []);
  } finally {
    log.stop();
    await t.close();
  }
});
