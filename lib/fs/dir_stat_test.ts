import assert from "node:assert/strict";
import { TEMP_PREFIX } from "./atomic.ts";
import {
  denoMs,
  entryId,
  entryIdOf,
  fileType,
  hasFastDirStat,
  openDirStat,
  S_IFDIR,
  S_IFIFO,
  S_IFLNK,
  S_IFREG,
} from "./dir_stat.ts";
import { withTempRoot } from "./_testing.ts";

Deno.test("openDirStat() gives exactly Deno.lstatSync()'s facts, through libc or not", async () => {
  assert.equal(hasFastDirStat(), Deno.build.os === "linux", "tests run with FFI allowed");
  await withTempRoot(async ({ root }) => {
    const times = [0, -1, -1.5, -0.0005, -86400.999, 1e-9, -1e-9, 1.0005, 1_700_000_000.123456];
    for (const [i, t] of times.entries()) {
      const path = `${root}/f${i} é "q"`;
      await Deno.writeTextFile(path, "x".repeat(i * 1000));
      await Deno.utime(path, t, t);
    }
    await Deno.mkdir(`${root}/dir`);
    await Deno.symlink("nowhere", `${root}/link`);
    await Deno.chmod(`${root}/f1 é "q"`, 0o4751);
    assert.equal(new Deno.Command("mkfifo", { args: [`${root}/pipe`] }).outputSync().code, 0);
    const fast = openDirStat({ real: root, anchor: root });
    const portable = openDirStat({ real: root, anchor: root }, { portable: true });
    try {
      const types = new Set<number>();
      for (const e of Deno.readDirSync(root)) {
        const info = Deno.lstatSync(`${root}/${e.name}`);
        const want = { mode: info.mode, size: info.size, mtimeMs: info.mtime!.getTime(), ino: info.ino };
        assert.deepEqual(fast.lstat(e.name), want, e.name);
        assert.deepEqual(portable.lstat(e.name), want, e.name);
        types.add(fileType(info.mode!));
      }
      assert.deepEqual([...types].sort(), [S_IFIFO, S_IFDIR, S_IFREG, S_IFLNK].sort());
      assert.equal(fast.lstat("missing"), null);
      assert.equal(portable.lstat("missing"), null);
      for (const name of ["missing", "dir", "link", `f3 é "q"`, `f0 é "q"`]) {
        assert.deepEqual([...fast.readHead(name)], [...portable.readHead(name)], name);
      }
    } finally {
      fast.close();
      portable.close();
    }
  });
});

Deno.test("denoMs() floors timespecs to milliseconds, before 1970 too", () => {
  assert.equal(denoMs(1, 999_999_999), 1999);
  assert.equal(denoMs(-1, 999_500_000), -1);
  assert.equal(denoMs(-2, 500_000_000), -1500);
  assert.equal(denoMs(0, 0), 0);
});

Deno.test("DirStat.readHead() reads the first bytes like readHeadSync(), never blocks on a FIFO", async () => {
  await withTempRoot(async ({ root }) => {
    const big = new Uint8Array(5000).map((_, i) => i % 251);
    await Deno.writeFile(`${root}/big`, big);
    await Deno.writeTextFile(`${root}/small`, "hello");
    await Deno.writeFile(`${root}/empty`, new Uint8Array(0));
    await Deno.writeTextFile(`${root}/secret`, "s");
    await Deno.chmod(`${root}/secret`, 0);
    assert.equal(new Deno.Command("mkfifo", { args: [`${root}/pipe`] }).outputSync().code, 0);
    const fast = openDirStat({ real: root, anchor: root });
    try {
      assert.deepEqual([...fast.readHead("big")], [...big.subarray(0, 512)]);
      assert.equal(new TextDecoder().decode(fast.readHead("small")), "hello");
      assert.equal(fast.readHead("empty").length, 0);
      // Root reads it anyway; anyone else gets an empty buffer, like readHeadSync().
      assert.ok([0, 1].includes(fast.readHead("secret").length));
      assert.equal(fast.readHead("pipe").length, 0, "a FIFO with no writer reads as empty at once");
    } finally {
      fast.close();
    }
  });
});

Deno.test("DirStat.list() names what Deno.readDirSync() names, in the same order, symlinks marked", async () => {
  await withTempRoot(async ({ root: base }) => {
    const root = `${base}/listed`;
    await Deno.mkdir(root);
    // Long names: their records fill several 64 KiB getdents64 calls.
    const names = ["dir", "link", ".hidden", "..x", "...", "é ü 漢字 🙂", `q "x" \\ y`];
    for (let i = 0; i < 1500; i++) names.push(`file-${i}-${"n".repeat(60)}.txt`);
    for (const name of names.slice(2)) await Deno.writeTextFile(`${root}/${name}`, "");
    await Deno.mkdir(`${root}/dir`);
    await Deno.symlink("nowhere", `${root}/link`);
    const want = [...Deno.readDirSync(root)];
    const fast = openDirStat({ real: root, anchor: root });
    try {
      const got = fast.list();
      if (!hasFastDirStat()) return assert.equal(got, null);
      assert.ok(got !== null);
      assert.deepEqual(got.names, want.map((e) => e.name));
      assert.deepEqual(got.links, want.flatMap((e, i) => (e.isSymlink ? [i] : [])));
      assert.equal(new Set(got.names).size, names.length);
      assert.deepEqual(got.inos, want.map((e) => Deno.lstatSync(`${root}/${e.name}`).ino));
      // lstatListed(i): the same facts as lstat(name), from the bytes as read.
      for (const [i, name] of got.names.entries()) {
        assert.ok(fast.lstatListed(i), name);
        assert.deepEqual({ ...fast.facts }, fast.lstat(name), name);
      }
      assert.equal(fast.lstatListed(-1), false);
      assert.equal(fast.lstatListed(got.names.length), false);
      Deno.removeSync(`${root}/...`);
      assert.equal(fast.lstatListed(got.names.indexOf("...")), false, "gone since listed");
    } finally {
      fast.close();
    }
    const portable = openDirStat({ real: root, anchor: root }, { portable: true });
    assert.equal(portable.list(), null);
    assert.equal(portable.lstatListed(0), false);
    assert.equal(portable.diff(new Map(), () => true), null);
    portable.close();
  });
});

Deno.test("DirStat.list() gives up (null) on a name that is not UTF-8", async () => {
  if (!hasFastDirStat()) return;
  await withTempRoot(async ({ root: base }) => {
    const root = `${base}/listed`;
    await Deno.mkdir(root);
    await Deno.writeTextFile(`${root}/fine.txt`, "");
    const libc = Deno.dlopen("libc.so.6", {
      creat: { parameters: ["buffer", "u32"], result: "i32" },
      close: { parameters: ["i32"], result: "i32" },
    });
    const path = new Uint8Array([...new TextEncoder().encode(`${root}/bad-`), 0xff, 0xfe, 0]);
    const fd = libc.symbols.creat(path, 0o644);
    assert.ok(fd >= 0);
    libc.symbols.close(fd);
    libc.close();
    const dir = openDirStat({ real: root, anchor: root });
    try {
      assert.equal(dir.list(), null);
    } finally {
      dir.close();
    }
  });
});

Deno.test("DirStat.diff() lstat's known entries from their bytes and names those added, replaced or changed", async () => {
  if (!hasFastDirStat()) return;
  await withTempRoot(async ({ root }) => {
    for (const name of ["a", "b", "c é", "d", "e"]) await Deno.writeTextFile(`${root}/${name}`, name);
    await Deno.writeTextFile(`${root}/${TEMP_PREFIX}x`, "t");
    await Deno.symlink("a", `${root}/${TEMP_PREFIX}link`);
    const names = ["a", "b", "c é", "d", "e", `${TEMP_PREFIX}link`];
    const idOf = (name: string) => entryIdOf(name, Deno.lstatSync(`${root}/${name}`).ino!);
    const known = new Map(names.map((name, i) => [idOf(name), i]));
    const sizes = names.map((name) => Deno.lstatSync(`${root}/${name}`).size);
    const gone = idOf("b");
    const before = idOf("d");
    Deno.removeSync(`${root}/b`);
    await Deno.writeTextFile(`${root}/new`, "n");
    await Deno.writeTextFile(`${root}/d.tmp`, "replaced");
    Deno.renameSync(`${root}/d.tmp`, `${root}/d`);
    await Deno.writeTextFile(`${root}/e`, "longer in place");
    const dir = openDirStat({ real: root, anchor: root });
    try {
      const asked: string[] = [];
      const diff = dir.diff(known, (i, facts) => {
        asked.push(names[i]);
        const info = Deno.lstatSync(`${root}/${names[i]}`);
        assert.deepEqual(facts, {
          mode: info.mode,
          size: info.size,
          mtimeMs: info.mtime!.getTime(),
          ino: info.ino,
        });
        return facts!.size === sizes[i];
      })!;
      // The temp file is skipped like listings skip it; a symlink with that prefix is listed.
      assert.deepEqual(diff.changed.sort(), ["d", "e", "new"]);
      assert.deepEqual(asked.sort(), ["a", "c é", "e", `${TEMP_PREFIX}link`].sort());
      assert.deepEqual([...diff.seen].sort(), ["a", "c é", "e", `${TEMP_PREFIX}link`].map(idOf).sort());
      assert.ok(!diff.seen.has(gone) && !diff.seen.has(before));
    } finally {
      dir.close();
    }
  });
});

Deno.test("entryId() depends on every byte of the name and on the whole inode number", () => {
  const ids = new Set<number>();
  const names = ["", "a", "b", "ab", "ba", "a\0", "é", "e\u0301", "x".repeat(255)];
  const inos = [0, 1, 2, 2 ** 32, 2 ** 32 + 1, 2 ** 52, Number.MAX_SAFE_INTEGER];
  for (const name of names) for (const ino of inos) ids.add(entryIdOf(name, ino));
  assert.equal(ids.size, names.length * inos.length);
  for (const id of ids) assert.ok(Number.isSafeInteger(id) && id >= 0);
  const bytes = new TextEncoder().encode("xxabcxx");
  assert.equal(entryId(bytes, 2, 5, 7), entryIdOf("abc", 7));
});
