import assert from "node:assert/strict";
import { createCommandGroup, findCgroups } from "./cgroup.ts";

Deno.test("createCommandGroup() makes limited child groups of the writable pids and memory cgroups and removes them", async () => {
  const parents = await findCgroups();
  // Without cgroup rights there is nothing to create (and null, not a throw, is the answer that matters).
  if (parents.pids === null && parents.memory === null) return;
  const group = await createCommandGroup({ parents, maxPids: 5, maxMemory: 64 * 1024 * 1024 });
  assert.ok(group.dirs.length >= 1 && group.dirs.every((d) => /\/fb-exec-[0-9a-f-]+$/.test(d)));
  if (parents.pids) {
    const dir = group.dirs.find((d) => d.startsWith(parents.pids + "/"))!;
    assert.equal((await Deno.readTextFile(`${dir}/pids.max`)).trim(), "5");
  }
  if (parents.memory) {
    const dir = group.dirs.find((d) => d.startsWith(parents.memory + "/"))!;
    const file = parents.version.memory === 1 ? "memory.limit_in_bytes" : "memory.max";
    assert.equal((await Deno.readTextFile(`${dir}/${file}`)).trim(), String(64 * 1024 * 1024));
  }
  await group.remove();
  for (const dir of group.dirs) assert.equal(await Deno.stat(dir).then(() => true, () => false), false);
});
