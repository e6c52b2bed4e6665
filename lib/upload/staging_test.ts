import assert from "node:assert/strict";
import { ConflictError } from "../errors.ts";
import { createStagingFile, placeFile, stagingPath, stagingSize, uploadIdOf, writeChunk } from "./staging.ts";

function streamOf(parts: Uint8Array[], options: { failAfter?: number } = {}): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (options.failAfter !== undefined && i === options.failAfter) {
        controller.error(new Error("connection reset"));
        return;
      }
      if (i < parts.length) controller.enqueue(parts[i++]);
      else controller.close();
    },
  });
}

const bytes = (s: string) => new TextEncoder().encode(s);

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

Deno.test("writeChunk() appends at the offset and cuts bytes of an uncommitted earlier write", async () => {
  await withDir(async (dir) => {
    const path = await createStagingFile(`${dir}/staging`, "x");
    await Deno.writeFile(path, bytes("hello, GARBAGE"));
    const res = await writeChunk(path, streamOf([bytes("wor"), bytes("ld")]), { offset: 5, limit: 10 });
    assert.deepEqual(res, { written: 5, overflow: false, aborted: false });
    assert.equal(await Deno.readTextFile(path), "helloworld");
  });
});

Deno.test("writeChunk() keeps bytes in order across its 1 MiB write buffers", async () => {
  await withDir(async (dir) => {
    const path = await createStagingFile(dir, "x");
    const data = new Uint8Array(2_600_000).map((_, i) => (i * 7 + (i >> 11)) & 0xff);
    const parts: Uint8Array[] = [];
    for (let at = 0; at < data.length; at += 100_003) parts.push(data.subarray(at, at + 100_003));
    const res = await writeChunk(path, streamOf(parts), { offset: 0, limit: data.length });
    assert.deepEqual(res, { written: data.length, overflow: false, aborted: false });
    assert.deepEqual(await Deno.readFile(path), data);
  });
});

Deno.test("writeChunk() keeps nothing of a body longer than the limit", async () => {
  await withDir(async (dir) => {
    const path = await createStagingFile(dir, "x");
    await Deno.writeFile(path, bytes("abc"));
    const body = streamOf([bytes("12"), bytes("34"), bytes("56")]);
    const res = await writeChunk(path, body, { offset: 3, limit: 3 });
    assert.equal(res.overflow, true);
    assert.equal(res.written, 0);
    assert.equal(await Deno.readTextFile(path), "abc");
    assert.equal(body.locked, false, "the reader lock is released so the rest can be drained");
  });
});

Deno.test("writeChunk() keeps what arrived before the client went away", async () => {
  await withDir(async (dir) => {
    const path = await createStagingFile(dir, "x");
    const res = await writeChunk(
      path,
      streamOf([bytes("abc"), bytes("def"), bytes("ghi")], { failAfter: 2 }),
      {
        offset: 0,
        limit: 100,
      },
    );
    assert.deepEqual(res, { written: 6, overflow: false, aborted: true });
    assert.equal(await stagingSize(path), 6);
  });
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
