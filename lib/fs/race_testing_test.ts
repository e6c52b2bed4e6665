import assert from "node:assert/strict";
import { startSwapper } from "./_race_testing.ts";

for (const exchange of [true, false]) {
  Deno.test(`startSwapper(exchange: ${exchange}) swaps a folder and a link under one name, and stop() restores them`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "race-" });
    try {
      await Deno.mkdir(`${dir}/d`);
      await Deno.writeTextFile(`${dir}/d/f.txt`, "inside");
      await Deno.mkdir(`${dir}/outside`);
      await Deno.writeTextFile(`${dir}/outside/f.txt`, "outside");
      await Deno.symlink("outside", `${dir}/dl`);
      const swapper = await startSwapper(`${dir}/d`, `${dir}/dl`, { exchange });
      const seen = new Set<string>();
      const until = performance.now() + 2000;
      while (performance.now() < until && seen.size < 2) {
        const info = await Deno.lstat(`${dir}/d`).catch(() => null);
        if (info) seen.add(info.isSymlink ? "link" : "dir");
        await new Promise((r) => setTimeout(r, 0));
      }
      const result = await swapper.stop();
      assert.deepEqual([...seen].sort(), ["dir", "link"]);
      assert.ok(result.swaps > 0);
      assert.equal(result.errors, 0, result.firstError ?? "");
      assert.equal(result.timedOut, false);
      assert.equal(await swapper.stop(), result, "stop() is idempotent");
      assert.equal((await Deno.lstat(`${dir}/d`)).isDirectory, true);
      assert.equal((await Deno.lstat(`${dir}/dl`)).isSymlink, true);
      assert.equal(await Deno.readTextFile(`${dir}/d/f.txt`), "inside");
      assert.equal(await Deno.readLink(`${dir}/dl`), "outside");
      assert.equal((await Array.fromAsync(Deno.readDir(dir))).length, 3, "no temp entry left");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("startSwapper() counts a vanished entry as an error and keeps going", async () => {
  const dir = await Deno.makeTempDir({ prefix: "race-" });
  try {
    await Deno.writeTextFile(`${dir}/a`, "a");
    const swapper = await startSwapper(`${dir}/a`, `${dir}/missing`, { pauseMs: 0.1 });
    await new Promise((r) => setTimeout(r, 50));
    const result = await swapper.stop();
    assert.equal(result.swaps, 0);
    assert.ok(result.errors > 0);
    assert.match(result.firstError ?? "", /^ENOENT/);
    assert.equal(await Deno.readTextFile(`${dir}/a`), "a");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startSwapper() stops by itself after maxMs and leaves the pair as it found it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "race-" });
  try {
    await Deno.writeTextFile(`${dir}/a`, "a");
    await Deno.writeTextFile(`${dir}/b`, "b");
    const swapper = await startSwapper(`${dir}/a`, `${dir}/b`, { maxMs: 30 });
    await new Promise((r) => setTimeout(r, 200));
    const swaps = swapper.swaps;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(swapper.swaps, swaps, "no longer swapping");
    const result = await swapper.stop();
    assert.equal(result.timedOut, true);
    assert.equal(await Deno.readTextFile(`${dir}/a`), "a");
    assert.equal(await Deno.readTextFile(`${dir}/b`), "b");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
