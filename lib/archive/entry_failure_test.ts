import assert from "node:assert/strict";
import { type ArchiveEntry, type ArchiveFormat, createArchive } from "./mod.ts";
import { collect, walkEntries } from "./_testing.ts";

const FORMATS: { format: ArchiveFormat; zipMethod?: "deflate" }[] = [
  { format: "zip" },
  { format: "zip", zipMethod: "deflate" },
  { format: "tar" },
  { format: "tar.gz" },
];

/** What happens to `b.bin` (200 KiB) after the tree was listed and before the archive reads it. */
const CHANGES: [string, (path: string) => Promise<void>, RegExp][] = [
  ["deleted", (path) => Deno.remove(path), /Cannot archive "b\.bin": .*No such file/],
  ["replaced by a folder (read error)", async (path) => {
    await Deno.remove(path);
    await Deno.mkdir(path);
  }, /Cannot archive "b\.bin": .*directory/i],
  [
    "truncated",
    (path) => Deno.truncate(path, 10),
    /Cannot archive "b\.bin": it shrank from 204800 to 10 bytes/,
  ],
];

for (const [change, apply, expected] of CHANGES) {
  for (const { format, zipMethod } of FORMATS) {
    Deno.test(`createArchive() ${format}${zipMethod ? "/deflate" : ""}: a listed file ${change} errors the stream`, async () => {
      const dir = await Deno.makeTempDir({ prefix: "fbarchive-" });
      try {
        await Deno.writeTextFile(`${dir}/a.txt`, "first");
        await Deno.writeFile(`${dir}/b.bin`, new Uint8Array(200 * 1024).fill(7));
        await Deno.writeTextFile(`${dir}/c.txt`, "after");
        const listed: ArchiveEntry[] = await Array.fromAsync(walkEntries(dir));
        await apply(`${dir}/b.bin`);
        const stream = createArchive(
          (async function* () {
            yield* listed;
          })(),
          { format, zipMethod },
        );
        await assert.rejects(collect(stream), expected);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
}

Deno.test("createArchive() names the entry when its stream fails, and still skips refused names", async () => {
  const data = () => new Response("x").body!;
  const entries = (async function* (): AsyncGenerator<ArchiveEntry> {
    const base = { isDir: false, size: 1, mtime: new Date(), mode: 0o644 };
    yield { ...base, name: "../refused.txt", open: () => Promise.resolve(data()) };
    yield { ...base, name: "ok.txt", open: () => Promise.resolve(data()) };
    yield {
      ...base,
      name: "sub/bad.txt",
      open: () => Promise.reject(new Deno.errors.PermissionDenied("denied")),
    };
  })();
  await assert.rejects(collect(createArchive(entries, { format: "zip" })), (err: Error) => {
    assert.equal(err.message, 'Cannot archive "sub/bad.txt": denied');
    assert.ok(err.cause instanceof Deno.errors.PermissionDenied);
    return true;
  });
});
