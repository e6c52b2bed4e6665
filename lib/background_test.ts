import assert from "node:assert/strict";
import { loadConfig } from "../config.ts";
import { bootDeps } from "./boot.ts";
import { closeDeps, startBackground } from "./background.ts";
import { listTrash, moveToTrash } from "./trash/mod.ts";
import { resolveScoped } from "./fs/gate.ts";
import { createRequestContext } from "./request_context.ts";
import { users } from "./storage/mod.ts";

const DAY = 24 * 3600_000;

/** Counts the intervals `fn` starts and does not clear (Deno's sanitizers do not report a leaked interval). */
async function openIntervals(fn: () => Promise<void>): Promise<number> {
  const open = new Set<unknown>();
  const { setInterval: set, clearInterval: clear } = globalThis;
  globalThis.setInterval = ((...args: Parameters<typeof set>) => {
    const id = set(...args);
    open.add(id);
    return id;
  }) as typeof set;
  globalThis.clearInterval = ((id?: number) => {
    open.delete(id);
    clear(id);
  }) as typeof clear;
  try {
    await fn();
  } finally {
    globalThis.setInterval = set;
    globalThis.clearInterval = clear;
  }
  for (const id of open) clear(id as number);
  return open.size;
}

// A watcher left behind by closeDeps() fails this test through Deno's resource sanitizer.
Deno.test("startBackground() walks the index and runs each sweep once at once; stop() and closeDeps() leave nothing running", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fbbg-" });
  try {
    const config = loadConfig(
      ["--root", `${dir}/root`, "--database", ":memory:", "--password", "bg-admin-pass-1"],
      {},
      dir,
    );
    let now = Date.now();
    const { deps } = await bootDeps(config, { now: () => now });
    await Deno.writeTextFile(`${config.root}/old.txt`, "old");
    const admin = (await users.listUsers(deps.kv))[0];
    const ctx = await createRequestContext(deps, await deps.cache.settings(), admin);
    await moveToTrash(deps, admin, await resolveScoped(ctx.gate, "/old.txt", "delete"));
    assert.equal((await listTrash(deps, ctx)).length, 1);
    assert.equal(deps.searchIndex.ready, false, "building the app starts nothing");

    now += (config.trashDays + 1) * DAY;
    const left = await openIntervals(async () => {
      let released = 0;
      const background = startBackground(deps, { afterStart: () => released++ });
      // Memory is given back once the walk and the first sweeps ended (then the server is idle), once.
      while (!released) await new Promise((r) => setTimeout(r, 10));
      assert.equal(deps.searchIndex.ready, true, "memory is released after the index's first walk");
      await background.stop();
      assert.equal(released, 1);
      assert.equal(deps.searchIndex.ready, true, "the index's first walk ran");
      assert.deepEqual(await listTrash(deps, ctx), [], "the trash sweep ran once at start");
      await closeDeps(deps);
    });
    assert.equal(left, 0, "stop() and closeDeps() clear every timer started");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
