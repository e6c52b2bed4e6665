/**
 * Archive benchmark (a script, not a test):
 *   deno run -A bench/archive.ts [--quick] [--formats=zip,tar.gz|all] [--sets=1000,10000,20000,big]
 *     [--sink=null|pipe] [--source=plain|gate] [--control] [--child-v8-flags=--expose-gc]
 *
 * Builds folders under bench/_work/ (N files of 32 KiB, half random and half text, 100 per
 * folder; "big" is 4 files of 128 MiB), then archives each in a fresh subprocess (`--child`).
 * The child drops the bytes (`--sink=null`, the default: the archiver alone) or writes them to
 * stdout for this process to drain (`--sink=pipe`: adds the cost of a pipe). The entries come from a plain
 * walk here (`--source=plain`, the default) or from the download route's own walk through the path gate
 * (`--source=gate`: planArchive of lib/fs/archive_source.ts, with every permission and no rules).
 * To profile one run: `deno run -A --cpu-prof bench/archive.ts --child zip bench/_work/files-10000 null gate`. Per run it reports:
 * throughput (input MiB per wall second, and per CPU second of the child, which is less
 * sensitive to other load on the machine), time to first byte (createArchive() to the first
 * chunk), and the child's RSS before archiving and peak RSS (VmHWM from /proc/self/status).
 * The children run with the V8 flags of deno.json's start task, or `--child-v8-flags` (empty for
 * none): the peak RSS depends mostly on how long V8 lets dead ArrayBuffers live, i.e. on how often
 * the young generation is collected (`--expose-gc` lets the archive stream ask for a collection
 * every 2 MiB, lib/young_gc.ts; a small young generation, `--max-semi-space-size=1`, has about the
 * same effect). The "churn" row (`--control`) allocates and drops
 * 64 KiB buffers for the same output volume with no archive code: the runtime's own floor.
 */
import { join, resolve } from "node:path";
import { type ArchiveEntry, type ArchiveFormat, createArchive, fileReadable } from "../lib/archive/mod.ts";
import { planArchive } from "../lib/fs/archive_source.ts";
import { resolveScoped } from "../lib/fs/gate.ts";
import { ctxFor } from "../lib/fs/_testing.ts";

const WORK = new URL("./_work/", import.meta.url).pathname;
const SMALL_FILE = 32 * 1024;
const FILES_PER_DIR = 100;
const BIG_FILE = 128 * 1024 * 1024;
const BIG_FILES = 4;

type Mode = ArchiveFormat | "churn";
const ALL_FORMATS: ArchiveFormat[] = [
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

interface ChildResult {
  files: number;
  inputBytes: number;
  outputBytes: number;
  ttfbMs: number;
  totalMs: number;
  cpuMs: number;
  rssBeforeKiB: number;
  hwmKiB: number;
}

function procStatus(field: string): number {
  const text = Deno.readTextFileSync("/proc/self/status");
  const match = text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
  return match ? Number(match[1]) : -1;
}

/** User + system CPU time of this process, in ms (clock ticks are 10 ms on Linux). */
function cpuMs(): number {
  const stat = Deno.readTextFileSync("/proc/self/stat");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Walks a folder depth first, as the /api/raw route will: stat each entry, open files on demand. */
async function* walk(root: string, prefix = ""): AsyncGenerator<ArchiveEntry> {
  const names: string[] = [];
  for await (const e of Deno.readDir(join(root, prefix))) names.push(e.name);
  names.sort();
  for (const name of names) {
    const rel = prefix ? `${prefix}/${name}` : name;
    const path = join(root, rel);
    const info = await Deno.stat(path);
    const base = { name: rel, size: info.size, mtime: info.mtime ?? new Date(), mode: info.mode ?? 0 };
    if (info.isDirectory) {
      yield { ...base, isDir: true };
      yield* walk(root, rel);
    } else {
      yield {
        ...base,
        isDir: false,
        open: async () => fileReadable(await Deno.open(path), { size: info.size }),
      };
    }
  }
}

/** File content: half pseudo-random, half text, so compressors have real work to do. */
function fileContent(index: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = (index * 2654435761) >>> 0 || 1;
  for (let i = 0; i < size / 2; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  const text = new TextEncoder().encode(`file ${index}: the quick brown fox jumps over the lazy dog\n`);
  for (let i = size / 2; i < size; i++) out[i] = text[i % text.length];
  return out;
}

async function ensureFolder(set: string): Promise<string> {
  const dir = join(WORK, set === "big" ? "big" : `files-${set}`);
  const marker = `${dir}.complete`;
  if (await Deno.stat(marker).then(() => true, () => false)) return dir;
  await Deno.remove(dir, { recursive: true }).catch(() => undefined);
  if (set === "big") {
    await Deno.mkdir(dir, { recursive: true });
    for (let i = 0; i < BIG_FILES; i++) {
      await Deno.writeFile(join(dir, `big${i}.bin`), fileContent(i, BIG_FILE));
    }
  } else {
    for (let i = 0; i < Number(set); i++) {
      const sub = join(dir, `d${String(Math.floor(i / FILES_PER_DIR)).padStart(4, "0")}`);
      if (i % FILES_PER_DIR === 0) await Deno.mkdir(sub, { recursive: true });
      await Deno.writeFile(join(sub, `f${i}.bin`), fileContent(i, SMALL_FILE));
    }
  }
  await Deno.writeTextFile(marker, "");
  return dir;
}

/** The control: the same output volume as 64 KiB buffers, without reading files or archiving. */
function churnStream(totalBytes: number): ReadableStream<Uint8Array> {
  let left = totalBytes;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const chunk = new Uint8Array(Math.min(64 * 1024, left)).fill(left & 0xff);
      left -= chunk.length;
      controller.enqueue(chunk);
    },
  });
}

/** The entries of `dir` as the download route lists them: through the gate, with every permission. */
async function* gateWalk(dir: string): AsyncGenerator<ArchiveEntry> {
  const ctx = ctxFor(resolve(dir));
  const plan = await planArchive(ctx, await resolveScoped(ctx, "/", "download"), { files: [] });
  yield* plan.entries;
}

async function child(mode: Mode, dir: string, sink: string, source = "plain"): Promise<void> {
  const rssBeforeKiB = procStatus("VmRSS");
  const cpuBefore = cpuMs();
  let files = 0;
  let inputBytes = 0;
  async function* counted() {
    for await (const e of source === "gate" ? gateWalk(dir) : walk(dir)) {
      if (!e.isDir) {
        files++;
        inputBytes += e.size;
      }
      yield e;
    }
  }
  const start = performance.now();
  let stream: ReadableStream<Uint8Array>;
  if (mode === "churn") {
    for await (const e of walk(dir)) inputBytes += e.isDir ? 0 : e.size;
    stream = churnStream(inputBytes);
  } else {
    stream = createArchive(counted(), { format: mode });
  }
  const out = Deno.stdout.writable.getWriter();
  let ttfbMs = -1;
  let outputBytes = 0;
  for await (const chunk of stream) {
    if (ttfbMs < 0) ttfbMs = performance.now() - start;
    outputBytes += chunk.length;
    if (sink === "pipe") await out.write(chunk);
  }
  const result: ChildResult = {
    files,
    inputBytes,
    outputBytes,
    ttfbMs,
    totalMs: performance.now() - start,
    cpuMs: cpuMs() - cpuBefore,
    rssBeforeKiB,
    hwmKiB: procStatus("VmHWM"),
  };
  await Deno.stderr.write(new TextEncoder().encode(JSON.stringify(result) + "\n"));
}

async function measure(
  mode: Mode,
  dir: string,
  options: { sink: string; source: string; v8Flags?: string },
): Promise<ChildResult> {
  const { sink, source } = options;
  const flags = options.v8Flags ? [`--v8-flags=${options.v8Flags}`] : [];
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...flags, new URL(import.meta.url).pathname, "--child", mode, dir, sink, source],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(proc.stderr).text();
  let received = 0;
  for await (const chunk of proc.stdout) received += chunk.length;
  const { code } = await proc.status;
  const text = (await stderr).trim().split("\n").pop() ?? "";
  if (code !== 0) throw new Error(`child failed (${code}): ${text}`);
  const result = JSON.parse(text) as ChildResult;
  if (sink === "pipe" && received !== result.outputBytes) {
    throw new Error(`received ${received} bytes, child wrote ${result.outputBytes}`);
  }
  return result;
}

function loadAverage(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

async function main(): Promise<void> {
  const option = (name: string) => Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  const quick = Deno.args.includes("--quick");
  const formats = option("formats");
  const modes = (formats === "all" ? ALL_FORMATS : formats?.split(",") ?? ["zip", "tar.gz"]) as Mode[];
  const sink = option("sink") ?? "null";
  const source = option("source") ?? "plain";
  const startTask: string =
    JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url))).tasks.start;
  const v8Flags =
    Deno.args.find((a) => a.startsWith("--child-v8-flags="))?.slice("--child-v8-flags=".length) ??
      startTask.match(/--v8-flags=(\S+)/)?.[1];
  const sets = option("sets")?.split(",") ?? (quick ? ["1000"] : ["1000", "10000", "20000", "big"]);
  const header = [
    "set",
    "format",
    "files",
    "in MiB",
    "out MiB",
    "MiB/s",
    "MiB/cpu-s",
    "TTFB ms",
    "RSS before",
    "peak RSS",
  ];
  const rows: string[][] = [header];
  const mib = (n: number) => (n / 1048576).toFixed(1);
  for (const set of sets) {
    const dir = await ensureFolder(set);
    for (const mode of [...modes, ...(Deno.args.includes("--control") ? ["churn" as const] : [])]) {
      const r = await measure(mode, dir, { sink, source, v8Flags });
      rows.push([
        set,
        mode,
        String(r.files),
        mib(r.inputBytes),
        mib(r.outputBytes),
        (r.inputBytes / 1048576 / (r.totalMs / 1000)).toFixed(0),
        (r.inputBytes / 1048576 / (Math.max(r.cpuMs, 10) / 1000)).toFixed(0),
        r.ttfbMs.toFixed(1),
        `${(r.rssBeforeKiB / 1024).toFixed(0)} MiB`,
        `${(r.hwmKiB / 1024).toFixed(0)} MiB`,
      ]);
    }
  }
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((c, i) => c.padStart(widths[i])).join("  "));
  lines.push(
    `sink: ${sink}; source: ${source}; load average at the end: ${loadAverage()} (${navigator.hardwareConcurrency} CPUs)`,
  );
  await Deno.stdout.write(new TextEncoder().encode(lines.join("\n") + "\n"));
}

if (Deno.args[0] === "--child") await child(Deno.args[1] as Mode, Deno.args[2], Deno.args[3], Deno.args[4]);
else await main();
