import assert from "node:assert/strict";
import { isCaseInsensitive } from "./case_probe.ts";
import { withTempRoot } from "./_testing.ts";

Deno.test("isCaseInsensitive() says sensitive on Linux file systems and leaves no probe", async () => {
  await withTempRoot(async ({ root }) => {
    assert.equal(await isCaseInsensitive(root), false);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(root)), []);
  });
});
