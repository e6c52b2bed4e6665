import assert from "node:assert/strict";
import { createPidsGroup, findPidsCgroup } from "./cgroup.ts";

Deno.test("createPidsGroup() makes a limited child group of the writable pids cgroup and removes it", async () => {
  const parent = await findPidsCgroup();
  // Without cgroup rights there is nothing to create (and null, not a throw, is the answer that matters).
  if (parent === null) return;
  const group = await createPidsGroup(parent, 5);
  assert.ok(group.dir.startsWith(parent + "/fb-exec-"));
  assert.equal((await Deno.readTextFile(`${group.dir}/pids.max`)).trim(), "5");
  await group.remove();
  assert.equal(await Deno.stat(group.dir).then(() => true, () => false), false);
});
