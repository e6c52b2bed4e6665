import assert from "node:assert/strict";
import { stagingPath, uploadIdOf } from "./staging.ts";

Deno.test("uploadIdOf() recognises staging file names only", () => {
  assert.equal(uploadIdOf("abc.part"), "abc");
  assert.equal(uploadIdOf("abc.tmp"), null);
  assert.equal(stagingPath("/s", "abc"), "/s/abc.part");
});
