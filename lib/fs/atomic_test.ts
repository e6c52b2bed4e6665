import assert from "node:assert/strict";
import { TEMP_PREFIX, uploadEtag, writeFileAtomic } from "./atomic.ts";
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
