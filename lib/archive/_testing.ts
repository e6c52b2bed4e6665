/** Test fixtures for lib/archive: a small tree on disk, its entries, and helpers to run real tools. */
import { join } from "node:path";
import type { ArchiveEntry } from "./entry.ts";
import { fileReadable } from "./file_stream.ts";

/** A file or directory expected inside an extracted archive. */
export type Expected = { dir: true } | { dir: false; data: Uint8Array; mode?: number };

/** Name of the file whose on-disk name has backslashes, and how it must appear in archives. */
export const BACKSLASH_NAME = "..\\..\\evil.sh";
export const BACKSLASH_STORED = ".._.._evil.sh";

const LONG_NAME = "l".repeat(120) + ".txt";
const UNICODE_NAME = "ünïcödé 文件 😀.txt";

function pseudoRandom(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = i % 3 === 0 ? 65 + (x & 7) : x & 0xff; // partly compressible
  }
  return out;
}

/** Creates the standard tree under `root` and returns what an extraction must contain. */
export async function buildTree(root: string): Promise<Map<string, Expected>> {
  const text = (s: string) => new TextEncoder().encode(s);
  const files: [string, Uint8Array, number?][] = [
    ["a/b/c/deep.txt", text("deep file\n")],
    ["a/b/sibling.bin", pseudoRandom(300 * 1024 + 17, 7)],
    ["a/run.sh", text("#!/bin/sh\necho hi\n"), 0o755],
    ["empty.txt", new Uint8Array(0)],
    [UNICODE_NAME, text("unicode content ✓\n")],
    [LONG_NAME, text("long name\n")],
    ["d".repeat(60) + "/" + "e".repeat(60) + "/nested-long.txt", text("nested long path\n")],
    [BACKSLASH_NAME, text("not evil\n")],
  ];
  const expected = new Map<string, Expected>();
  for (
    const dir of ["a", "a/b", "a/b/c", "empty_dir", "d".repeat(60), "d".repeat(60) + "/" + "e".repeat(60)]
  ) {
    await Deno.mkdir(join(root, dir), { recursive: true });
    expected.set(dir, { dir: true });
  }
  for (const [name, data, mode] of files) {
    await Deno.writeFile(join(root, name), data, { mode: mode ?? 0o644 });
    if (mode) await Deno.chmod(join(root, name), mode);
    expected.set(name === BACKSLASH_NAME ? BACKSLASH_STORED : name, { dir: false, data, mode });
  }
  return expected;
}

/** Walks `root` (sorted, depth first) and yields archive entries, as the route will. */
export async function* walkEntries(root: string, prefix = ""): AsyncGenerator<ArchiveEntry> {
  const names: string[] = [];
  for await (const e of Deno.readDir(join(root, prefix))) names.push(e.name);
  names.sort();
  for (const name of names) {
    const rel = prefix ? `${prefix}/${name}` : name;
    const path = join(root, rel);
    const info = await Deno.stat(path);
    if (info.isDirectory) {
      yield { name: rel, isDir: true, size: 0, mtime: info.mtime ?? new Date(), mode: info.mode ?? 0o755 };
      yield* walkEntries(root, rel);
    } else {
      yield {
        name: rel,
        isDir: false,
        size: info.size,
        mtime: info.mtime ?? new Date(),
        mode: info.mode ?? 0o644,
        open: async () => fileReadable(await Deno.open(path), { size: info.size }),
      };
    }
  }
}

/** Reads an extracted tree back into the same shape as `buildTree`'s result. */
export async function readTree(root: string, prefix = "", out = new Map<string, Expected>()) {
  for await (const e of Deno.readDir(join(root, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) {
      out.set(rel, { dir: true });
      await readTree(root, rel, out);
    } else {
      const info = await Deno.stat(join(root, rel));
      out.set(rel, {
        dir: false,
        data: await Deno.readFile(join(root, rel)),
        mode: (info.mode ?? 0) & 0o777,
      });
    }
  }
  return out;
}

/** Whether a command can be started. */
export async function hasCommand(name: string): Promise<boolean> {
  try {
    await new Deno.Command(name, { args: ["--version"], stdout: "null", stderr: "null" }).output();
    return true;
  } catch {
    // Not installed: the caller skips the tests that need it.
    return false;
  }
}

/** Runs a command and returns stdout; throws with stderr on a non-zero exit. */
export async function run(cmd: string, args: string[], options: { stdin?: Uint8Array; cwd?: string } = {}) {
  const child = new Deno.Command(cmd, {
    args,
    cwd: options.cwd,
    stdin: options.stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin) {
    const writer = child.stdin.getWriter();
    await writer.write(options.stdin);
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  if (code !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} failed (${code}): ${new TextDecoder().decode(stderr)}`);
  }
  return stdout;
}

/** The parts one after the other, in one array. */
export function concatBytes(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Collects a stream into one array. */
export async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** An entry source that yields `count` tiny files with generated content. */
export async function* tinyEntries(count: number): AsyncGenerator<ArchiveEntry> {
  const mtime = new Date("2024-05-06T07:08:10Z");
  for (let i = 0; i < count; i++) {
    const data = new TextEncoder().encode(String(i));
    yield {
      name: `f/${i}.txt`,
      isDir: false,
      size: data.length,
      mtime,
      mode: 0o644,
      open: () => Promise.resolve(new Response(data).body!),
    };
  }
}

/** How many of this process's descriptors are open on `dir` or below it (Linux: /proc/self/fd). */
export function openFdsUnder(dir: string): number {
  // The disk floor keeps one descriptor of each files root open (its anchor, lib/fs/floor.ts): not a leak.
  let n = 0;
  for (const fd of Deno.readDirSync("/proc/self/fd")) {
    try {
      const target = Deno.readLinkSync(`/proc/self/fd/${fd.name}`);
      if (target.startsWith(dir + "/")) n++;
    } catch {
      // The fd closed between listing and reading: not ours to count.
    }
  }
  return n;
}
