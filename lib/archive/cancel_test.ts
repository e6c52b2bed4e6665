import assert from "node:assert/strict";
import { join } from "node:path";
import { type ArchiveEntry, type ArchiveFormat, createArchive, fileReadable } from "./mod.ts";
import { hasCommand } from "./_testing.ts";

const FORMATS: ArchiveFormat[] = [
  "zip",
  "tar",
  "tar.gz",
  "tar.bz2",
  "tar.xz",
  "tar.lz4",
  "tar.sz",
  "tar.br",
  "tar.zst",
];
const HAS = { bzip2: await hasCommand("bzip2"), xz: await hasCommand("xz") };

function producible(format: ArchiveFormat): boolean {
  return format === "tar.bz2" ? HAS.bzip2 : format === "tar.xz" ? HAS.xz : true;
}

/** An endless, incompressible source that records whether it was cancelled. */
function endlessSource() {
  const state = { cancelled: false, pulls: 0 };
  let x = 12345;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulls++;
      const chunk = new Uint8Array(64 * 1024);
      for (let i = 0; i < chunk.length; i++) {
        x = (x * 1103515245 + 12345) >>> 0;
        chunk[i] = x >>> 24;
      }
      controller.enqueue(chunk);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { state, stream };
}

async function* oneEndlessEntry(stream: ReadableStream<Uint8Array>): AsyncGenerator<ArchiveEntry> {
  yield {
    name: "endless.bin",
    isDir: false,
    size: 2 ** 40,
    mtime: new Date(),
    mode: 0o644,
    open: () => Promise.resolve(stream),
  };
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

for (const format of FORMATS) {
  Deno.test({
    name: `cancelling a ${format} archive cancels the entry stream being read`,
    ignore: !producible(format),
    fn: async () => {
      const { state, stream } = endlessSource();
      const reader = createArchive(oneEndlessEntry(stream), { format }).getReader();
      const first = await reader.read();
      assert.equal(first.done, false);
      await reader.cancel();
      await waitFor(() => state.cancelled, "the entry stream to be cancelled");
      const pulls = state.pulls;
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(state.pulls, pulls, "no more reads after cancel");
    },
  });
}

function openFdsTo(path: string): number {
  let n = 0;
  for (const fd of Deno.readDirSync("/proc/self/fd")) {
    try {
      if (Deno.readLinkSync(`/proc/self/fd/${fd.name}`) === path) n++;
    } catch {
      // The fd closed between listing and reading: not ours to count.
    }
  }
  return n;
}

Deno.test("cancelling a zip archive closes the file being read and the files opened ahead", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "archive_cancel_" }));
  try {
    const size = 8 * 1024 * 1024;
    const paths: string[] = [];
    for (let i = 0; i < 4; i++) {
      paths.push(join(tmp, `big${i}.bin`));
      await Deno.writeFile(paths[i], new Uint8Array(size).fill(i));
    }
    const entries = async function* (): AsyncGenerator<ArchiveEntry> {
      for (const [i, path] of paths.entries()) {
        const open = async () => fileReadable(await Deno.open(path), { size });
        yield { name: `big${i}.bin`, isDir: false, size, mtime: new Date(), mode: 0o644, open };
      }
    };
    const reader = createArchive(entries(), { format: "zip" }).getReader();
    await reader.read();
    await waitFor(() => openFdsTo(paths[0]) === 1 && openFdsTo(paths[3]) === 1, "files to be open");
    await reader.cancel();
    await waitFor(() => paths.every((p) => openFdsTo(p) === 0), "every file to be closed");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

function isGone(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true; // no such process
  }
}

for (const [format, tool] of [["tar.bz2", "bzip2"], ["tar.xz", "xz"]] as const) {
  Deno.test({
    name: `cancelling a ${format} archive kills the ${tool} process and cancels the entry`,
    ignore: !HAS[tool],
    fn: async () => {
      const tmp = await Deno.makeTempDir({ prefix: "archive_kill_" });
      try {
        // A wrapper that records its pid, then becomes the real tool (exec keeps the pid).
        const wrapper = join(tmp, tool);
        const pidFile = join(tmp, "pid");
        await Deno.writeTextFile(wrapper, `#!/bin/sh\necho $$ > '${pidFile}'\nexec ${tool} "$@"\n`);
        await Deno.chmod(wrapper, 0o755);
        const { state, stream } = endlessSource();
        const archive = createArchive(oneEndlessEntry(stream), { format, tools: { [tool]: wrapper } });
        const reader = archive.getReader();
        const pending = reader.read();
        // The shell creates the file before it writes the pid: wait for a whole line, not just the file.
        await waitFor(
          async () => /^\d+\n$/.test(await Deno.readTextFile(pidFile).catch(() => "")),
          "the tool to start",
        );
        const pid = Number((await Deno.readTextFile(pidFile)).trim());
        await waitFor(() => state.pulls > 4, "input to flow into the tool");
        assert.equal(isGone(pid), false);
        await reader.cancel();
        await pending;
        await waitFor(() => isGone(pid), `${tool} (pid ${pid}) to exit`);
        await waitFor(() => state.cancelled, "the entry stream to be cancelled");
      } finally {
        await Deno.remove(tmp, { recursive: true });
      }
    },
  });
}

Deno.test("aborting the signal errors the archive stream and cancels the entry", async () => {
  const { state, stream } = endlessSource();
  const controller = new AbortController();
  const reader = createArchive(oneEndlessEntry(stream), { format: "zip", signal: controller.signal })
    .getReader();
  await reader.read();
  controller.abort(new Error("client went away"));
  await assert.rejects(async () => {
    while (!(await reader.read()).done) { /* drain until the error surfaces */ }
  }, /client went away/);
  await waitFor(() => state.cancelled, "the entry stream to be cancelled");
});

Deno.test("an entry stream that fails mid-read errors the archive instead of truncating it silently", async () => {
  let pulls = 0;
  const failing = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (++pulls > 3) controller.error(new Error("disk on fire"));
      else controller.enqueue(new Uint8Array(100_000));
    },
  });
  for (const format of ["zip", "tar.gz"] as const) {
    const stream = format === "zip" ? failing : new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("disk on fire"));
      },
    });
    const entries = (async function* (): AsyncGenerator<ArchiveEntry> {
      yield {
        name: "a.bin",
        isDir: false,
        size: 400_000,
        mtime: new Date(),
        mode: 0o644,
        open: () => Promise.resolve(stream),
      };
    })();
    await assert.rejects(
      () => new Response(createArchive(entries, { format })).arrayBuffer(),
      /disk on fire/,
    );
  }
});
