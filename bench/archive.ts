/**
 * Archive benchmark (a script, not a test): `deno run -A bench/archive.ts [--quick] [--formats=zip,tar.gz]`.
 *
 * Builds folders of 32 KiB files under bench/_work/, then archives each in a fresh subprocess
 * (`--child`) that writes the archive to stdout. Reports throughput (input MiB per second),
 * time to first byte (from createArchive() to the first chunk), and the child's peak RSS
 * (VmHWM from /proc/self/status) next to its RSS before archiving.
 */
import { join } from "node:path";
import { type ArchiveEntry, type ArchiveFormat, createArchive, fileReadable } from "../lib/archive/mod.ts";

const WORK = new URL("./_work/", import.meta.url).pathname;
const FILE_SIZE = 32 * 1024;
const FILES_PER_DIR = 100;

interface ChildResult {
  format: ArchiveFormat;
  files: number;
  inputBytes: number;
  outputBytes: number;
  ttfbMs: number;
  totalMs: number;
  rssBeforeKiB: number;
  hwmKiB: number;
}

function procStatus(field: string): number {
  const text = Deno.readTextFileSync("/proc/self/status");
  const match = text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
  return match ? Number(match[1]) : -1;
}

/** Walks a folder depth first, as the /api/raw route will (stat, then open on demand). */
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
function fileContent(index: number): Uint8Array {
  const out = new Uint8Array(FILE_SIZE);
  let x = (index * 2654435761) >>> 0 || 1;
  for (let i = 0; i < FILE_SIZE / 2; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  const text = new TextEncoder().encode(`file ${index}: the quick brown fox jumps over the lazy dog\n`);
  for (let i = FILE_SIZE / 2; i < FILE_SIZE; i++) out[i] = text[i % text.length];
  return out;
}

async function ensureFolder(files: number): Promise<string> {
  const dir = join(WORK, `files-${files}`);
  const marker = join(WORK, `files-${files}.complete`);
  try {
    await Deno.stat(marker);
    return dir;
  } catch {
    // Not built yet (or interrupted): rebuild below.
  }
  await Deno.remove(dir, { recursive: true }).catch(() => undefined);
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `d${String(Math.floor(i / FILES_PER_DIR)).padStart(4, "0")}`);
    if (i % FILES_PER_DIR === 0) await Deno.mkdir(sub, { recursive: true });
    await Deno.writeFile(join(sub, `f${i}.bin`), fileContent(i));
  }
  await Deno.writeTextFile(marker, "");
  return dir;
}

async function child(format: ArchiveFormat, dir: string): Promise<void> {
  const rssBeforeKiB = procStatus("VmRSS");
  let files = 0;
  let inputBytes = 0;
  async function* counted() {
    for await (const e of walk(dir)) {
      if (!e.isDir) {
        files++;
        inputBytes += e.size;
      }
      yield e;
    }
  }
  const start = performance.now();
  const stream = createArchive(counted(), { format });
  const out = Deno.stdout.writable.getWriter();
  let ttfbMs = -1;
  let outputBytes = 0;
  for await (const chunk of stream) {
    if (ttfbMs < 0) ttfbMs = performance.now() - start;
    outputBytes += chunk.length;
    await out.write(chunk);
  }
  const totalMs = performance.now() - start;
  const result: ChildResult = {
    format,
    files,
    inputBytes,
    outputBytes,
    ttfbMs,
    totalMs,
    rssBeforeKiB,
    hwmKiB: procStatus("VmHWM"),
  };
  await Deno.stderr.write(new TextEncoder().encode(JSON.stringify(result) + "\n"));
}

async function measure(format: ArchiveFormat, dir: string): Promise<ChildResult> {
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, "--child", format, dir],
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
  if (received !== result.outputBytes) {
    throw new Error(`received ${received} bytes, child wrote ${result.outputBytes}`);
  }
  return result;
}

async function main(): Promise<void> {
  const quick = Deno.args.includes("--quick");
  const formatsArg = Deno.args.find((a) => a.startsWith("--formats="));
  const formats = (formatsArg?.slice(10).split(",") ?? ["zip", "tar.gz"]) as ArchiveFormat[];
  const counts = quick ? [1000] : [1000, 10000, 20000];
  const rows: string[][] = [[
    "format",
    "files",
    "input MiB",
    "output MiB",
    "MiB/s",
    "TTFB ms",
    "RSS before",
    "peak RSS",
  ]];
  for (const count of counts) {
    const dir = await ensureFolder(count);
    for (const format of formats) {
      const r = await measure(format, dir);
      const mib = (n: number) => (n / 1048576).toFixed(1);
      rows.push([
        format,
        String(r.files),
        mib(r.inputBytes),
        mib(r.outputBytes),
        (r.inputBytes / 1048576 / (r.totalMs / 1000)).toFixed(0),
        r.ttfbMs.toFixed(1),
        `${(r.rssBeforeKiB / 1024).toFixed(0)} MiB`,
        `${(r.hwmKiB / 1024).toFixed(0)} MiB`,
      ]);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((c, i) => c.padStart(widths[i])).join("  "));
  await Deno.stdout.write(new TextEncoder().encode(lines.join("\n") + "\n"));
}

if (Deno.args[0] === "--child") await child(Deno.args[1] as ArchiveFormat, Deno.args[2]);
else await main();
