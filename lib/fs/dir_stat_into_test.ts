import assert from "node:assert/strict";
import { hasFastDirStat, readWholeFileInto, S_IFDIR, S_IFREG } from "./dir_stat.ts";
import { withTempRoot } from "./_testing.ts";

Deno.test({
  name: "readWholeFileInto() reads small regular files into the caller's buffer, and nothing else",
  ignore: !hasFastDirStat(),
  fn: async () => {
    await withTempRoot(async ({ root, outside }) => {
      const data = new Uint8Array(5000).map((_, i) => i & 0xff);
      await Deno.writeFile(`${root}/five`, data);
      await Deno.writeFile(`${root}/empty`, new Uint8Array(0));
      await Deno.mkdir(`${root}/dir`);
      await Deno.writeTextFile(`${outside}/target`, "outside");
      await Deno.symlink(`${outside}/target`, `${root}/link`);
      new Deno.Command("mkfifo", { args: [`${root}/pipe`] }).outputSync();
      const cases: [string, number, number | null, number?][] = [
        // name, buffer size, expected `read` (null: the call answers null), expected type
        ["five", 5000, 5000, S_IFREG],
        ["five", 8192, 5000, S_IFREG],
        ["five", 4999, -1, S_IFREG],
        ["empty", 0, 0, S_IFREG],
        ["dir", 8192, -1, S_IFDIR],
        ["pipe", 8192, -1],
        ["link", 8192, null],
        ["missing", 8192, null],
      ];
      for (const [name, bufferSize, read, type] of cases) {
        const target = new Uint8Array(bufferSize).fill(0xee);
        const got = readWholeFileInto(`${root}/${name}`, target);
        if (read === null) {
          assert.equal(got, null, name);
          continue;
        }
        assert.ok(got, name);
        assert.equal(got.read, read, `${name} into ${bufferSize} bytes`);
        if (type !== undefined) assert.equal(got.mode & 0o170000, type, name);
        if (read > 0) assert.deepEqual(target.subarray(0, read), data.subarray(0, read), name);
        if (read < 0) assert.ok(target.every((b) => b === 0xee), `${name}: nothing written`);
        if (name === "five") assert.equal(got.size, 5000);
      }
    });
  },
});
