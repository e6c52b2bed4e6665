import assert from "node:assert/strict";
import {
  denoMs,
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
    const fast = openDirStat(root);
    const portable = openDirStat(root, { portable: true });
    try {
      const types = new Set<number>();
      for (const e of Deno.readDirSync(root)) {
        const info = Deno.lstatSync(`${root}/${e.name}`);
        const want = { mode: info.mode, size: info.size, mtimeMs: info.mtime!.getTime() };
        assert.deepEqual(fast.lstat(e.name), want, e.name);
        assert.deepEqual(portable.lstat(e.name), want, e.name);
        types.add(fileType(info.mode!));
      }
      assert.deepEqual([...types].sort(), [S_IFIFO, S_IFDIR, S_IFREG, S_IFLNK].sort());
      assert.equal(fast.lstat("missing"), null);
      assert.equal(portable.lstat("missing"), null);
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
