/** planArchive()'s reads: small files whole in one call, larger ones streamed, and files changed after listing. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { collect, hasCommand, openFdsUnder, run } from "../archive/_testing.ts";
import { type ArchiveEntry, type ArchiveFormat, createArchive } from "../archive/mod.ts";
import { planArchive, WHOLE_READ_MAX } from "./archive_source.ts";
import { resolveScoped } from "./gate.ts";
import { hasFastDirStat } from "./dir_stat.ts";
import { ctxFor, withTempRoot } from "./_testing.ts";

const HAS_UNZIP = await hasCommand("unzip");

function content(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

async function plan(root: string): Promise<AsyncIterable<ArchiveEntry>> {
  const ctx = ctxFor(root);
  return (await planArchive(ctx, await resolveScoped(ctx, "/", "download"), { files: [] })).entries;
}

const SIZES = [0, 1, 4096, WHOLE_READ_MAX, WHOLE_READ_MAX + 1, 200 * 1024 + 3];

Deno.test("planArchive() offers readWhole for small regular files only, and it gives their bytes", async () => {
  await withTempRoot(async ({ root }) => {
    for (const [i, size] of SIZES.entries()) await Deno.writeFile(`${root}/f${i}`, content(size, i));
    await Deno.mkdir(`${root}/dir`);
    const seen: string[] = [];
    for await (const e of await plan(root)) {
      if (e.isDir) {
        assert.equal(e.readWhole, undefined);
        continue;
      }
      const i = Number(e.name.slice(1));
      assert.equal(typeof e.readWhole === "function", SIZES[i] <= WHOLE_READ_MAX, e.name);
      const bytes = e.readWhole?.(new Uint8Array(WHOLE_READ_MAX));
      // Where libc is missing the portable path answers null: open() streams instead.
      if (bytes && hasFastDirStat()) assert.deepEqual(bytes, content(SIZES[i], i), e.name);
      seen.push(e.name);
    }
    assert.deepEqual(seen, SIZES.map((_, i) => `f${i}`));
  });
});

Deno.test({
  name:
    "planArchive() + createArchive(): small and large files round-trip through unzip and tar, byte for byte",
  ignore: !HAS_UNZIP,
  fn: async () => {
    await withTempRoot(async ({ root, dir }) => {
      const expected = new Map<string, Uint8Array>();
      for (let i = 0; i < 300; i++) {
        const size = SIZES[i % SIZES.length];
        const name = `d${i % 7}/f${i}.bin`;
        await Deno.mkdir(`${root}/d${i % 7}`, { recursive: true });
        await Deno.writeFile(`${root}/${name}`, content(size, i));
        expected.set(name, content(size, i));
      }
      const cases: [ArchiveFormat, "store" | "deflate" | undefined][] = [
        ["zip", undefined],
        ["zip", "deflate"],
        ["tar", undefined],
      ];
      for (const [format, zipMethod] of cases) {
        const out = join(dir, `x-${format}-${zipMethod}`);
        await Deno.mkdir(out);
        const archive = join(dir, `a.${format}`);
        await Deno.writeFile(archive, await collect(createArchive(await plan(root), { format, zipMethod })));
        if (format === "zip") {
          await run("unzip", ["-tq", archive]);
          await run("unzip", ["-q", archive, "-d", out]);
        } else {
          await run("tar", ["-xf", archive, "-C", out]);
        }
        for (const [name, data] of expected) {
          assert.deepEqual(
            await Deno.readFile(join(out, name)),
            data,
            `${format} ${zipMethod ?? ""} ${name}`,
          );
        }
      }
    });
  },
});

const FORMATS: { format: ArchiveFormat; zipMethod?: "deflate" }[] = [
  { format: "zip" },
  { format: "zip", zipMethod: "deflate" },
  { format: "tar" },
];

/** What happens to the small `b.bin` (5000 bytes) after it was listed and before the archive reads it. */
const CHANGES: [string, (path: string) => Promise<void>, RegExp | number][] = [
  ["deleted", (path) => Deno.remove(path), /Cannot archive "b\.bin": .*No such file/],
  ["replaced by a folder", async (path) => {
    await Deno.remove(path);
    await Deno.mkdir(path);
  }, /Cannot archive "b\.bin": it is no longer a regular file/],
  [
    "truncated",
    (path) => Deno.truncate(path, 10),
    /Cannot archive "b\.bin": it shrank from 5000 to 10 bytes/,
  ],
  ["emptied", (path) => Deno.truncate(path, 0), /Cannot archive "b\.bin": it shrank from 5000 to 0 bytes/],
  // Grown files are cut at their listed size, whether still small or not.
  ["grown a little", (path) => Deno.writeFile(path, content(6000, 9)), 5000],
  ["grown past the whole-read size", (path) => Deno.writeFile(path, content(WHOLE_READ_MAX * 3, 9)), 5000],
];

for (const [change, apply, expected] of CHANGES) {
  for (const { format, zipMethod } of FORMATS) {
    Deno.test(`planArchive() ${format}${zipMethod ? "/deflate" : ""}: a small file ${change} after listing`, async () => {
      await withTempRoot(async ({ root, dir }) => {
        await Deno.writeTextFile(`${root}/a.txt`, "first");
        await Deno.writeFile(`${root}/b.bin`, content(5000, 1));
        await Deno.writeTextFile(`${root}/c.txt`, "after");
        const listed = await Array.fromAsync(await plan(root));
        await apply(`${root}/b.bin`);
        const archive = createArchive(
          (async function* () {
            yield* listed;
          })(),
          { format, zipMethod },
        );
        if (typeof expected !== "number") {
          await assert.rejects(collect(archive), expected);
          return;
        }
        const path = join(dir, `a.${format}`);
        await Deno.writeFile(path, await collect(archive));
        const out = join(dir, "x");
        await Deno.mkdir(out);
        if (format === "zip") {
          if (!HAS_UNZIP) return;
          await run("unzip", ["-q", path, "-d", out]);
        } else {
          await run("tar", ["-xf", path, "-C", out]);
        }
        assert.deepEqual(await Deno.readFile(join(out, "b.bin")), content(6000, 9).subarray(0, expected));
        assert.equal(await Deno.readTextFile(join(out, "c.txt")), "after");
      });
    });
  }
}

for (const size of [5000, WHOLE_READ_MAX * 3]) {
  Deno.test(`planArchive(): a ${size}-byte file swapped for a link to a file outside after listing fails the archive`, async () => {
    await withTempRoot(async ({ root, dir }) => {
      await Deno.writeTextFile(`${dir}/secret.txt`, "outside the scope");
      await Deno.writeFile(`${root}/b.bin`, content(size, 1));
      const listed = await Array.fromAsync(await plan(root));
      await Deno.remove(`${root}/b.bin`);
      await Deno.symlink(`${dir}/secret.txt`, `${root}/b.bin`);
      for (const format of ["zip", "tar"] as const) {
        const archive = createArchive(
          (async function* () {
            yield* listed;
          })(),
          { format },
        );
        await assert.rejects(collect(archive), /Cannot archive "b\.bin": .*link/i, format);
      }
    });
  });
}

Deno.test("planArchive(): a large file swapped for a FIFO after listing fails the archive without blocking", async () => {
  await withTempRoot(async ({ root }) => {
    await Deno.writeFile(`${root}/b.bin`, content(WHOLE_READ_MAX * 3, 1));
    const listed = await Array.fromAsync(await plan(root));
    await Deno.remove(`${root}/b.bin`);
    await new Deno.Command("mkfifo", { args: [`${root}/b.bin`] }).output();
    const archive = createArchive(
      (async function* () {
        yield* listed;
      })(),
      { format: "zip" },
    );
    await assert.rejects(collect(archive), /Cannot archive "b\.bin": it is no longer a regular file/);
  });
});

Deno.test("cancelling an archive of planArchive() closes every folder and file it had open", async () => {
  await withTempRoot(async ({ root }) => {
    for (let d = 0; d < 3; d++) {
      await Deno.mkdir(`${root}/d${d}/e`, { recursive: true });
      // A large file first in each folder (streamed), then small ones (read whole).
      await Deno.writeFile(`${root}/d${d}/e/0.bin`, content(3 * 1024 * 1024, d));
      for (let i = 1; i < 50; i++) await Deno.writeFile(`${root}/d${d}/e/${i}.bin`, content(1000, i));
    }
    for (const format of ["zip", "tar"] as const) {
      const reader = createArchive(await plan(root), { format }).getReader();
      await reader.read();
      assert.ok(openFdsUnder(root) > 0, "folders and the file being read are open");
      await reader.cancel();
      for (let i = 0; i < 200 && openFdsUnder(root) > 0; i++) await new Promise((r) => setTimeout(r, 5));
      assert.equal(openFdsUnder(root), 0, format);
    }
  });
});

Deno.test("planArchive() holds one folder descriptor however deep the tree", async () => {
  await withTempRoot(async ({ root }) => {
    let path = root;
    for (let i = 0; i < 40; i++) {
      path += "/d";
      await Deno.mkdir(path);
      await Deno.writeTextFile(`${path}/a.txt`, "a");
      await Deno.writeTextFile(`${path}/z.txt`, "z");
    }
    let peak = 0;
    let entries = 0;
    for await (const _ of await plan(root)) {
      entries++;
      peak = Math.max(peak, openFdsUnder(root));
    }
    assert.equal(entries, 40 * 3);
    assert.ok(peak <= 1, `peak of ${peak} descriptors under the root`);
    assert.equal(openFdsUnder(root), 0);
  });
});
