import assert from "node:assert/strict";
import { lockOwner, withLockFile } from "./lock.ts";

const LOCK_URL = new URL("./lock.ts", import.meta.url).href;

async function deadPid(): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), { args: ["eval", ""], stdout: "null", stderr: "null" })
    .spawn();
  await child.status;
  return child.pid;
}

Deno.test("withLockFile() breaks a lock whose owner process is gone, at once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/.lock`;
    await Deno.writeTextFile(path, JSON.stringify({ pid: await deadPid(), host: Deno.hostname() }));
    const t0 = Date.now();
    const got = await withLockFile(path, async () => (await lockOwner(path))?.pid, { staleMs: 600_000 });
    assert.equal(got, Deno.pid);
    assert.ok(Date.now() - t0 < 60_000);
    await assert.rejects(() => Deno.stat(path), Deno.errors.NotFound, "released");
    assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing left beside it");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withLockFile() breaks an untouched lock of another host after staleMs, not before", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/.lock`;
    await Deno.writeTextFile(path, JSON.stringify({ pid: 1, host: "elsewhere" }));
    let entered = false;
    const run = withLockFile(path, () => Promise.resolve(entered = true), { staleMs: 2_000, pollMs: 20 });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(entered, false, "a fresh lock is respected");
    const old = new Date(Date.now() - 10_000);
    await Deno.utime(path, old, old);
    await run;
    assert.equal(entered, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withLockFile() lets one of several processes in at a time", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const script = `${dir}/worker.ts`;
    await Deno.writeTextFile(
      script,
      `import { withLockFile } from ${JSON.stringify(LOCK_URL)};
const [lock, log] = Deno.args;
await withLockFile(lock, async () => {
  await Deno.writeTextFile(log, "in " + Deno.pid + "\\n", { append: true });
  await new Promise((r) => setTimeout(r, 300));
  await Deno.writeTextFile(log, "out " + Deno.pid + "\\n", { append: true });
}, { pollMs: 10 });
`,
    );
    const runs = Array.from({ length: 4 }, () =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", script, `${dir}/.lock`, `${dir}/log`],
        stdout: "null",
        stderr: "piped",
      }).output());
    for (const out of await Promise.all(runs)) {
      assert.ok(out.success, new TextDecoder().decode(out.stderr));
    }
    const lines = (await Deno.readTextFile(`${dir}/log`)).trim().split("\n");
    assert.equal(lines.length, 8);
    for (let i = 0; i < lines.length; i += 2) {
      const [a, pa] = lines[i].split(" "), [b, pb] = lines[i + 1].split(" ");
      assert.deepEqual([a, b, pa], ["in", "out", pb], lines.join(" | "));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
