import assert from "node:assert/strict";
import { flushWatchEvents, watchFolder } from "./watch.ts";

/** Kernel inotify watches of this process (all descriptors). */
function kernelWatches(): number {
  let n = 0;
  for (const e of Deno.readDirSync("/proc/self/fd")) {
    try {
      if (!Deno.readLinkSync(`/proc/self/fd/${e.name}`).includes("inotify")) continue;
      n += Deno.readTextFileSync(`/proc/self/fdinfo/${e.name}`).split("\n")
        .filter((l) => l.startsWith("inotify wd:")).length;
    } catch {
      // The descriptor of the listing itself is gone already.
    }
  }
  return n;
}

function mkfifo(path: string): void {
  const out = new Deno.Command("mkfifo", { args: [path] }).outputSync();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

async function withDir(fn: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("watchFolder() reports a named pipe made in the folder without opening it, and closes at once", async () => {
  await withDir(async (dir) => {
    const events: Deno.FsEvent[] = [];
    const watch = watchFolder(dir, { onEvent: (e) => events.push(e) });
    mkfifo(`${dir}/pipe`);
    flushWatchEvents();
    assert.deepEqual(events.map((e) => [e.kind, e.paths]), [["create", [`${dir}/pipe`]]]);
    // Nobody is opening the pipe for reading: a non-blocking writer finds no reader (ENXIO). Deno's own
    // watcher was stuck opening it by now.
    const writer = new Deno.Command("dd", { args: ["if=/dev/null", `of=${dir}/pipe`, "oflag=nonblock"] });
    const out = await writer.output();
    assert.notEqual(out.code, 0);
    assert.match(new TextDecoder().decode(out.stderr), /No such device or address/);
    watch.close();
    await watch.ended;
    // A watch made after it works, on this thread, at once.
    const again = watchFolder(dir, { onEvent: (e) => events.push(e) });
    Deno.writeTextFileSync(`${dir}/f`, "x");
    flushWatchEvents();
    again.close();
    assert.deepEqual(events.at(-1)?.paths, [`${dir}/f`]);
  });
});

Deno.test("watchFolder() names the entry of each change and stops reporting when closed", async () => {
  await withDir(async (dir) => {
    const seen: string[] = [];
    const watch = watchFolder(dir, { onEvent: (e) => seen.push(`${e.kind} ${e.paths.join(",")}`) });
    Deno.writeTextFileSync(`${dir}/a`, "1");
    Deno.renameSync(`${dir}/a`, `${dir}/b`);
    Deno.removeSync(`${dir}/b`);
    Deno.mkdirSync(`${dir}/sub`);
    Deno.writeTextFileSync(`${dir}/sub/deep`, "not reported: not recursive");
    flushWatchEvents();
    assert.deepEqual(seen.filter((s, i) => s !== seen[i - 1]), [
      `create ${dir}/a`,
      `modify ${dir}/a`,
      `remove ${dir}/a`,
      `create ${dir}/b`,
      `remove ${dir}/b`,
      `create ${dir}/sub`,
    ]);
    watch.close();
    await watch.ended;
    Deno.writeTextFileSync(`${dir}/c`, "after close");
    flushWatchEvents();
    assert.equal(seen.at(-1), `create ${dir}/sub`);
  });
});

Deno.test("a recursive watchFolder() follows folders made, moved and removed below it", async () => {
  await withDir((dir) => {
    Deno.mkdirSync(`${dir}/a/b`, { recursive: true });
    const paths: string[] = [];
    const base = kernelWatches();
    const watch = watchFolder(dir, { recursive: true, onEvent: (e) => paths.push(...e.paths) });
    try {
      assert.equal(kernelWatches() - base, 3);
      Deno.writeTextFileSync(`${dir}/a/b/f`, "x");
      Deno.mkdirSync(`${dir}/new`);
      flushWatchEvents();
      Deno.writeTextFileSync(`${dir}/new/g`, "x");
      Deno.renameSync(`${dir}/a`, `${dir}/new/a2`);
      flushWatchEvents();
      Deno.writeTextFileSync(`${dir}/new/a2/b/h`, "x");
      flushWatchEvents();
      assert.ok(paths.includes(`${dir}/a/b/f`), paths.join("\n"));
      assert.ok(paths.includes(`${dir}/new/g`), paths.join("\n"));
      assert.ok(paths.includes(`${dir}/new/a2/b/h`), paths.join("\n"));
      assert.equal(kernelWatches() - base, 4);
      Deno.removeSync(`${dir}/new`, { recursive: true });
      flushWatchEvents();
      assert.equal(kernelWatches() - base, 1);
    } finally {
      watch.close();
    }
    assert.equal(kernelWatches(), base);
  });
});

Deno.test("two watches of one folder share its kernel watch; closing one leaves the other working", async () => {
  await withDir((dir) => {
    const base = kernelWatches();
    const one: string[] = [];
    const two: string[] = [];
    const a = watchFolder(dir, { onEvent: (e) => one.push(...e.paths) });
    const b = watchFolder(dir, { onEvent: (e) => two.push(...e.paths) });
    assert.equal(kernelWatches() - base, 1);
    a.close();
    Deno.writeTextFileSync(`${dir}/f`, "x");
    flushWatchEvents();
    assert.deepEqual([one.length, two.includes(`${dir}/f`)], [0, true]);
    b.close();
    assert.equal(kernelWatches(), base);
  });
});

Deno.test("watchFolder() ends with onEnd when its folder is removed, and refuses what is no folder", async () => {
  await withDir(async (dir) => {
    Deno.mkdirSync(`${dir}/gone`);
    const ends: (Error | null)[] = [];
    const watch = watchFolder(`${dir}/gone`, { onEvent: () => {}, onEnd: (err) => ends.push(err) });
    Deno.removeSync(`${dir}/gone`);
    flushWatchEvents();
    await watch.ended;
    assert.deepEqual(ends, [null]);
    mkfifo(`${dir}/pipe`);
    assert.throws(() => watchFolder(`${dir}/pipe`, { onEvent: () => {} }), /not a folder/);
    assert.throws(() => watchFolder(`${dir}/none`, { onEvent: () => {} }), /no such folder/);
  });
});

Deno.test("watchFolder() delivers events by itself, without a flush", async () => {
  await withDir(async (dir) => {
    let resolve!: (path: string) => void;
    const got = new Promise<string>((r) => (resolve = r));
    const watch = watchFolder(dir, { onEvent: (e) => resolve(e.paths[0]) });
    try {
      Deno.writeTextFileSync(`${dir}/f`, "x");
      assert.equal(await got, `${dir}/f`);
    } finally {
      watch.close();
    }
  });
});
