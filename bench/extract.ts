/**
 * Extraction benchmark (a script, not a test):
 *   deno run -A bench/extract.ts [--files=10000] [--size=4096] [--child-v8-flags=...]
 *
 * Builds a zip of N files (system `zip`, deflated, 100 per folder) under bench/_work/, then extracts it in a
 * fresh subprocess (`--child`) through planExtract()/runExtract() (gate, hooks, atomic writes: everything but
 * HTTP) and reports files per second and the child's peak RSS (VmHWM). Goal: peak RSS <= 96 MiB. The child
 * runs with the --v8-flags of deno.json's start task unless `--child-v8-flags` says otherwise.
 *
 * Measured 2026-11-27 on the 2-core machine (load average 5–10, five runs each, alternating): with zip.js
 * reading the zip, peak 91.8–99.8 MiB, 78–145 files/s (median 105), first pass 1.3–3.0 s, 35–53 s CPU; with
 * our directory reader and content checks (lib/extract/zip_directory.ts, zip_content.ts), peak 68.5–80.5 MiB,
 * 124–287 files/s (median 147), first pass 0.2–0.6 s, 22–37 s CPU (both with `--max-semi-space-size=1`, then
 * part of the start task). 2026-11-28 (load 0.1–2.4, one run of 3 each): with `--expose-gc` only and no
 * collections 132.0 MiB, 300 files/s; with `--max-semi-space-size=1,--expose-gc` 76.3 MiB, 375 files/s; with
 * `--expose-gc` and runExtract's young-generation collections every 512 KiB of work 74.3 MiB, 404 files/s.
 */
import { DEFAULT_EXTRACT_LIMITS, planExtract, runExtract } from "../lib/extract/mod.ts";
import { extractRequest } from "../lib/extract/_testing.ts";

const enc = new TextEncoder();
const print = (line: string) => Deno.stdout.writeSync(enc.encode(line + "\n"));
const WORK = new URL("./_work/extract/", import.meta.url).pathname;
const args = Object.fromEntries(Deno.args.map((a) => a.replace(/^--/, "").split("=")));
const FILES = Number(args.files ?? 10_000);
const SIZE = Number(args.size ?? 4096);
const START_TASK: string =
  JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url))).tasks.start;
// Not from `args`: the flags themselves contain "=".
const CHILD_V8_FLAGS: string = Deno.args.find((a) => a.startsWith("--child-v8-flags="))?.slice(17) ??
  START_TASK.match(/--v8-flags=(\S+)/)?.[1] ?? "";

function hwmKiB(): number {
  const m = Deno.readTextFileSync("/proc/self/status").match(/^VmHWM:\s+(\d+) kB/m);
  return m ? Number(m[1]) : -1;
}

async function child(): Promise<void> {
  const root = `${WORK}/root`;
  await Deno.remove(`${root}/out`, { recursive: true }).catch(() => {});
  const req = extractRequest(root);
  const start = performance.now();
  const plan = await planExtract(req, Deno.env.get("BENCH_ARCHIVE") ?? "/bench.zip", {
    destination: "/out",
    conflict: "skip",
    limits: DEFAULT_EXTRACT_LIMITS,
  });
  const planned = performance.now();
  let last = null;
  const trace = Deno.env.get("BENCH_TRACE")
    ? setInterval(() => Deno.stderr.writeSync(enc.encode(JSON.stringify(Deno.memoryUsage()) + "\n")), 2000)
    : undefined;
  for await (const event of runExtract(plan)) last = event;
  clearInterval(trace);
  const end = performance.now();
  print(JSON.stringify({ last, planMs: planned - start, totalMs: end - start, hwmKiB: hwmKiB() }));
}

async function build(): Promise<void> {
  const src = `${WORK}/src`;
  try {
    await Deno.stat(`${WORK}/root/bench.zip`);
    return;
  } catch {
    // Not built yet.
  }
  await Deno.mkdir(`${WORK}/root`, { recursive: true });
  const text = "lorem ipsum dolor sit amet ".repeat(Math.ceil(SIZE / 27)).slice(0, SIZE);
  for (let i = 0; i < FILES; i++) {
    const dir = `${src}/d${Math.floor(i / 100)}`;
    if (i % 100 === 0) await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(`${dir}/f${i}.txt`, `${i}\n${text}`);
  }
  const out = await new Deno.Command("zip", { args: ["-qr", `${WORK}/root/bench.zip`, "."], cwd: src })
    .output();
  if (!out.success) throw new Error("zip failed");
}

if (Deno.args.includes("--child")) {
  await child();
} else {
  await build();
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        ...(CHILD_V8_FLAGS ? [`--v8-flags=${CHILD_V8_FLAGS}`] : []),
        import.meta.filename!,
        "--child",
      ],
      stderr: "inherit",
    }).output();
    runs.push(JSON.parse(new TextDecoder().decode(out.stdout)));
  }
  runs.sort((a, b) => a.totalMs - b.totalMs);
  const mid = runs[1];
  print(
    `extract ${FILES} files of ~${SIZE} B (zip): ${(FILES / (mid.totalMs / 1000)).toFixed(0)} files/s ` +
      `(first pass ${mid.planMs.toFixed(0)} ms, total ${mid.totalMs.toFixed(0)} ms, median of 3), ` +
      `peak RSS ${(Math.max(...runs.map((r) => r.hwmKiB)) / 1024).toFixed(1)} MiB; last event ${
        JSON.stringify(mid.last)
      }`,
  );
}
