import assert from "node:assert/strict";
import { ConflictError } from "../errors.ts";
import {
  copyFileAtomic,
  placeAtomically,
  renameOnto,
  TEMP_PREFIX,
  tempPathFor,
  uploadEtag,
  writeFileAtomic,
} from "./atomic.ts";
import { copyLinkAtomic } from "./copy.ts";
import { resolveScoped } from "./gate.ts";
import { ctxFor, withTempRoot } from "./_testing.ts";

function failingStream(chunks: string[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i < chunks.length) c.enqueue(new TextEncoder().encode(chunks[i++]));
      else c.error(new Error("client went away"));
    },
  });
}

async function listNames(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("writeFileAtomic() leaves the old content and no temp file when the body fails", async () => {
  await withTempRoot(async ({ root }) => {
    await Deno.writeTextFile(`${root}/f.txt`, "old content");
    const target = await resolveScoped(ctxFor(root), "/f.txt", "modify");
    await assert.rejects(writeFileAtomic(target, failingStream(["new ", "partial"])), /client went away/);
    assert.equal(await Deno.readTextFile(`${root}/f.txt`), "old content");
    assert.deepEqual(await listNames(root), ["f.txt"]);
  });
});

Deno.test("writeFileAtomic() replaces the file and keeps its mode; aborting stops it", async () => {
  await withTempRoot(async ({ root }) => {
    await Deno.writeTextFile(`${root}/f.txt`, "old");
    await Deno.chmod(`${root}/f.txt`, 0o600);
    const target = await resolveScoped(ctxFor(root), "/f.txt", "modify");
    const info = await writeFileAtomic(target, new TextEncoder().encode("new content"));
    assert.equal(await Deno.readTextFile(`${root}/f.txt`), "new content");
    assert.equal((await Deno.stat(`${root}/f.txt`)).mode! & 0o777, 0o600);
    assert.match(uploadEtag(info), /^"[0-9a-f]+b"$/);
    const ac = new AbortController();
    ac.abort();
    const t2 = await resolveScoped(ctxFor(root), "/f.txt", "modify");
    const body = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(new Uint8Array(10)) });
    await assert.rejects(writeFileAtomic(t2, body, { signal: ac.signal }));
    assert.equal(await Deno.readTextFile(`${root}/f.txt`), "new content");
    assert.ok(!(await listNames(root)).some((n) => n.startsWith(TEMP_PREFIX)));
  });
});

Deno.test("writeFileAtomic() creates parents for new files and writes through an in-scope link", async () => {
  await withTempRoot(async ({ root }) => {
    const target = await resolveScoped(ctxFor(root), "/a/b/new.txt", "create");
    await writeFileAtomic(target, new TextEncoder().encode("x"), { createParents: true });
    assert.equal(await Deno.readTextFile(`${root}/a/b/new.txt`), "x");
    assert.equal((await Deno.stat(`${root}/a/b/new.txt`)).mode! & 0o777, 0o640);
    await Deno.symlink("a/b/new.txt", `${root}/link`);
    const viaLink = await resolveScoped(ctxFor(root), "/link", "modify");
    await writeFileAtomic(viaLink, new TextEncoder().encode("through"));
    assert.equal(await Deno.readTextFile(`${root}/a/b/new.txt`), "through");
    assert.ok((await Deno.lstat(`${root}/link`)).isSymlink, "the link itself is kept");
  });
});

Deno.test("placeAtomically() lands a file only when fill succeeds, and keepExisting never replaces", async () => {
  await withTempRoot(async ({ root }) => {
    const dest = `${root}/x/y/f.txt`;
    await placeAtomically(dest, (temp) => Deno.writeTextFile(temp, "one"), { createParents: true });
    assert.equal(await Deno.readTextFile(dest), "one");
    await assert.rejects(
      placeAtomically(dest, async (temp) => {
        await Deno.writeTextFile(temp, "half");
        throw new Error("fill failed");
      }),
      /fill failed/,
    );
    await assert.rejects(
      placeAtomically(dest, (temp) => Deno.writeTextFile(temp, "two"), { keepExisting: true }),
      (err) => err instanceof ConflictError && err.code === "target_exists",
    );
    assert.equal(await Deno.readTextFile(dest), "one", "the old file stays after both failures");
    await placeAtomically(dest, (temp) => Deno.writeTextFile(temp, "three"));
    assert.equal(await Deno.readTextFile(dest), "three");
    assert.deepEqual(await listNames(`${root}/x/y`), ["f.txt"], "no temp file left behind");
  });
});

Deno.test("tempPathFor() names a hidden sibling, and renameOnto() links without replacing", async () => {
  await withTempRoot(async ({ root }) => {
    const temp = tempPathFor(`${root}/d/f.txt`, "copy");
    assert.ok(temp.startsWith(`${root}/d/${TEMP_PREFIX}copy-`), temp);
    assert.notEqual(temp, tempPathFor(`${root}/d/f.txt`, "copy"), "random per call");
    await Deno.writeTextFile(`${root}/a`, "a");
    await Deno.writeTextFile(`${root}/b`, "b");
    await assert.rejects(renameOnto(`${root}/a`, `${root}/b`, { replace: false }), ConflictError);
    assert.deepEqual(await listNames(root), ["a", "b"]);
    await renameOnto(`${root}/a`, `${root}/c`, { replace: false });
    await renameOnto(`${root}/c`, `${root}/b`, { replace: true });
    assert.deepEqual(await listNames(root), ["b"]);
    assert.equal(await Deno.readTextFile(`${root}/b`), "a");
  });
});

Deno.test("copyFileAtomic() keeps the source's mode unless told one; copyLinkAtomic() copies the link text", async () => {
  await withTempRoot(async ({ root }) => {
    await Deno.writeTextFile(`${root}/src`, "data");
    await Deno.chmod(`${root}/src`, 0o604);
    await copyFileAtomic(`${root}/src`, `${root}/new/dst`);
    assert.equal(await Deno.readTextFile(`${root}/new/dst`), "data");
    assert.equal((await Deno.stat(`${root}/new/dst`)).mode! & 0o777, 0o604);
    await copyFileAtomic(`${root}/src`, `${root}/new/dst`, { mode: 0o640 });
    assert.equal((await Deno.stat(`${root}/new/dst`)).mode! & 0o777, 0o640);
    await Deno.symlink("../somewhere/else", `${root}/link`);
    await copyLinkAtomic(root, `${root}/link`, `${root}/new/link`);
    assert.equal(await Deno.readLink(`${root}/new/link`), "../somewhere/else");
    assert.deepEqual(await listNames(`${root}/new`), ["dst", "link"]);
  });
});
