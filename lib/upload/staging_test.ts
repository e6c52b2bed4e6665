import assert from "node:assert/strict";
import { ConflictError } from "../errors.ts";
import { createStagingFile, placeFile, stagingPath, stagingSize, uploadIdOf } from "./staging.ts";

async function withDir(fn: (dir: string) => Promise<void>, options: { base?: string } = {}): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fbup-", dir: options.base });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("uploadIdOf() recognises staging file names only", () => {
  assert.equal(uploadIdOf("abc.part"), "abc");
  assert.equal(uploadIdOf("abc.tmp"), null);
  assert.equal(stagingPath("/s", "abc"), "/s/abc.part");
});

Deno.test("placeFile() creates parents, and without override never replaces an existing file", async () => {
  await withDir(async (dir) => {
    const staging = await createStagingFile(`${dir}/staging`, "a");
    await Deno.writeTextFile(staging, "new");
    await placeFile(staging, `${dir}/root/x/y/file.txt`, { override: false });
    assert.equal(await Deno.readTextFile(`${dir}/root/x/y/file.txt`), "new");
    assert.equal(await stagingSize(staging), null, "staging file moved away");

    const second = await createStagingFile(`${dir}/staging`, "b");
    await Deno.writeTextFile(second, "newer");
    await assert.rejects(placeFile(second, `${dir}/root/x/y/file.txt`, { override: false }), ConflictError);
    assert.equal(await Deno.readTextFile(`${dir}/root/x/y/file.txt`), "new", "existing file untouched");
    await placeFile(second, `${dir}/root/x/y/file.txt`, { override: true });
    assert.equal(await Deno.readTextFile(`${dir}/root/x/y/file.txt`), "newer");
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
        await assert.rejects(placeFile(staging, `${dir}/t.txt`, { override: false }), ConflictError);
        assert.equal(await Deno.readTextFile(`${dir}/t.txt`), "old");
        assert.deepEqual(
          [...Deno.readDirSync(dir)].map((e) => e.name),
          ["t.txt"],
          "no temp file left behind",
        );
        await placeFile(staging, `${dir}/t.txt`, { override: true });
        assert.equal(await Deno.readTextFile(`${dir}/t.txt`), "cross");
        assert.equal(await stagingSize(staging), null);
        assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["t.txt"]);
      });
    }, { base: "/dev/shm" });
  },
});
