import assert from "node:assert/strict";
import { ConflictError } from "../errors.ts";
import { resolveScoped } from "../fs/gate.ts";
import { ctxFor } from "../fs/_testing.ts";
import { placeFile } from "./placement.ts";
import { createStagingFile, stagingSize } from "./staging.ts";

async function withDir(fn: (dir: string) => Promise<void>, options: { base?: string } = {}): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "fbup-", dir: options.base }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The gate's view of `vpath` under `root`, as upload completion gets it. */
function target(root: string, vpath: string) {
  return resolveScoped(ctxFor(root), vpath, "create");
}

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("placeFile() creates parents, and without override never replaces an existing file", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(`${dir}/root`);
    const staging = await createStagingFile(`${dir}/staging`, "a");
    await Deno.writeTextFile(staging, "new");
    await placeFile(staging, await target(`${dir}/root`, "/x/y/file.txt"), { override: false });
    assert.equal(await Deno.readTextFile(`${dir}/root/x/y/file.txt`), "new");
    assert.equal(await stagingSize(staging), null, "staging file moved away");

    const second = await createStagingFile(`${dir}/staging`, "b");
    await Deno.writeTextFile(second, "newer");
    const existing = await target(`${dir}/root`, "/x/y/file.txt");
    await assert.rejects(placeFile(second, existing, { override: false }), ConflictError);
    assert.equal(await Deno.readTextFile(`${dir}/root/x/y/file.txt`), "new", "existing file untouched");
    await placeFile(second, existing, { override: true });
    assert.equal(await Deno.readTextFile(`${dir}/root/x/y/file.txt`), "newer");
    assert.deepEqual(await names(`${dir}/root/x/y`), ["file.txt"], "no temp file left behind");
  });
});

const shm = await Deno.stat("/dev/shm").then((s) => s.isDirectory, () => false);
const tmpDev = (await Deno.stat(Deno.env.get("TMPDIR") ?? "/tmp")).dev;
const shmDev = shm ? (await Deno.stat("/dev/shm")).dev : tmpDev;

Deno.test({
  name: "placeFile() copies through a temp file next to the target when staging is on another device",
  ignore: !shm || shmDev === tmpDev,
  async fn() {
    await withDir(async (stagingDir) => {
      await withDir(async (dir) => {
        const staging = await createStagingFile(stagingDir, "a");
        await Deno.writeTextFile(staging, "cross");
        await Deno.writeTextFile(`${dir}/t.txt`, "old");
        const existing = await target(dir, "/t.txt");
        await assert.rejects(placeFile(staging, existing, { override: false }), ConflictError);
        assert.equal(await Deno.readTextFile(`${dir}/t.txt`), "old");
        assert.deepEqual(await names(dir), ["t.txt"], "no temp file left behind");
        await placeFile(staging, existing, { override: true });
        assert.equal(await Deno.readTextFile(`${dir}/t.txt`), "cross");
        assert.equal((await Deno.stat(`${dir}/t.txt`)).mode! & 0o777, 0o640, "placed with the file mode");
        assert.equal(await stagingSize(staging), null);
        assert.deepEqual(await names(dir), ["t.txt"]);
      });
    }, { base: "/dev/shm" });
  },
});

Deno.test("placeFile() into a folder swapped for a link to outside after the check writes nothing there", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(`${dir}/root/docs`, { recursive: true });
    await Deno.mkdir(`${dir}/outside`);
    const staging = await createStagingFile(`${dir}/staging`, "a");
    await Deno.writeTextFile(staging, "new");
    for (const vpath of ["/docs/file.txt", "/docs/sub/file.txt"]) {
      const checked = await target(`${dir}/root`, vpath);
      await Deno.rename(`${dir}/root/docs`, `${dir}/root/docs.moved`);
      await Deno.symlink(`${dir}/outside`, `${dir}/root/docs`);
      await assert.rejects(
        placeFile(staging, checked, { override: false }),
        (e: Error & { status?: number }) => e.status === 403,
      );
      assert.deepEqual(await names(`${dir}/outside`), []);
      await Deno.remove(`${dir}/root/docs`);
      await Deno.rename(`${dir}/root/docs.moved`, `${dir}/root/docs`);
    }
    assert.equal(await stagingSize(staging), 3, "the staging file stays for the client's retry");
  });
});
