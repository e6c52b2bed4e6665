/** The litmus WebDAV compliance suite (Debian package `litmus`) against the real server. */
import assert from "node:assert/strict";
import { TEST_PASSWORD } from "../_helpers.ts";
import { run, serveDav } from "./_dav.ts";

const GROUPS = "basic copymove props locks http";

Deno.test("litmus passes its basic, copymove, props, locks and http groups", async () => {
  const s = await serveDav();
  try {
    const { code, out } = await run("litmus", [s.davUrl, "admin", TEST_PASSWORD], {
      env: { TESTS: GROUPS },
      cwd: s.t.dir,
    });
    // deno-lint-ignore no-console -- the suite's own report belongs in the test log
    console.log(out);
    assert.equal(code, 0, "litmus reported failures");
    assert.doesNotMatch(out, /FAIL/);
  } finally {
    await s.close();
  }
});
