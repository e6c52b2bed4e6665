/**
 * Listing benchmark (a script, not a test):
 *   deno run -A bench/listing.ts [--sizes=10000,100000] [--runs=30] [--names=txt|noext] [--settle-s=30]
 *     [--entry=start.ts|main.ts] [--v8-flags=...] [--load-s=5] [--conc=8] [--idle-s=3]
 *
 * Creates folders of N small files under bench/_work/listing-N (kept between runs), then measures the
 * latency of `GET /api/resources/listing-N/` on our server against nginx's JSON autoindex of the same
 * folder, sequentially over one keep-alive connection after a warm-up. Goal: p50 ≤ 1.4× nginx.
 * `--names=noext` uses names without extension, which makes our listing sniff file headers (when
 * typeDetectionByHeader is on, the default). Our server's RSS is reported idle (before the first request), at
 * its peak (VmHWM) and after the runs; `--settle-s=30` reports it again that long after the last request.
 * "Idle" is taken `--idle-s` after the start (default 3; some 15 s lets the search index's first walk of the
 * bench folders end and its memory be given back first).
 * The server runs as `deno task start` does (start.ts, the server bundle, the task's --v8-flags) unless
 * `--entry=main.ts` / `--v8-flags=` say otherwise. `--load-s` (default 5; 0 skips) also measures warm
 * throughput: `--conc` parallel clients requesting the smallest folder for that many seconds.
 *
 * `--cold=N` measures instead the first request of a folder that no cache holds, N times per size: after the
 * first start ever (empty database, no search index snapshot: the index's first walk runs meanwhile), after N
 * restarts that find their database and snapshot (nginx restarted as many times), and right after a change in
 * the folder (a file created, which the answer must list), against nginx after the same change. `--app-dir=<other
 * checkout>` runs our server from there (a before/after).
 */
import { parseArgs } from "node:util";
import { type BenchServer, percentile, serverCpuMs, startApp, startNginx } from "./_nginx.ts";

/** Writes one line to stdout (the lint rule forbids console in this project). */
function print(line: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
}

const WORK = new URL("./_work/", import.meta.url).pathname;
/** CPU ms the servers used during the timed GETs of `--cold` (10 ms ticks: meaningful over several runs). */
const coldCpu = new Map<BenchServer, number>();

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "10000,100000" },
    runs: { type: "string", default: "30" },
    names: { type: "string", default: "txt" },
    /** After the runs, wait this long and report the server's RSS again (0: skip). */
    "settle-s": { type: "string", default: "0" },
    /** Seconds after the start at which idle RSS is taken. */
    "idle-s": { type: "string", default: "3" },
    entry: { type: "string", default: "start.ts" },
    /** Default: the --v8-flags of deno.json's start task. */
    "v8-flags": { type: "string" },
    "load-s": { type: "string", default: "5" },
    conc: { type: "string", default: "8" },
    cold: { type: "string", default: "0" },
    "app-dir": { type: "string" },
  },
});
const sizes = values.sizes!.split(",").map(Number);
const runs = Number(values.runs);
const settleS = Number(values["settle-s"]);
const loadS = Number(values["load-s"]);
const conc = Number(values.conc);
const startTask: string = JSON.parse(
  Deno.readTextFileSync(new URL("../deno.json", import.meta.url)),
).tasks.start;
const v8Flags = values["v8-flags"] ?? startTask.match(/--v8-flags=(\S+)/)?.[1] ?? "";

/** A field of /proc/<pid>/status in MiB (VmRSS now, VmHWM peak). */
function procMiB(pid: number, field: string): number {
  const text = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0) / 1024;
}
const noExt = values.names === "noext";

async function ensureFolder(n: number): Promise<string> {
  const name = `listing-${n}${noExt ? "-noext" : ""}`;
  const dir = `${WORK}${name}`;
  try {
    await Deno.stat(`${dir}.complete`);
    return name;
  } catch {
    // Build it below.
  }
  await Deno.mkdir(dir, { recursive: true });
  const data = new TextEncoder().encode("some text content\n");
  for (let i = 0; i < n; i++) {
    Deno.writeFileSync(`${dir}/file-${String(i).padStart(6, "0")}${noExt ? "" : ".txt"}`, data);
  }
  await Deno.writeTextFile(`${dir}.complete`, "");
  return name;
}

async function measure(
  server: BenchServer,
  path: string,
): Promise<{ p50: number; p90: number; bytes: number; cpu: number }> {
  const times: number[] = [];
  let bytes = 0;
  let cpu0 = 0;
  for (let i = 0; i < runs + 3; i++) {
    if (i === 3) cpu0 = serverCpuMs(server);
    const t0 = performance.now();
    const r = await fetch(server.url + path, { headers: server.headers });
    const body = await r.arrayBuffer();
    const ms = performance.now() - t0;
    if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
    bytes = body.byteLength;
    if (i >= 3) times.push(ms);
  }
  return {
    p50: percentile(times, 50),
    p90: percentile(times, 90),
    bytes,
    cpu: (serverCpuMs(server) - cpu0) / runs,
  };
}

await Deno.mkdir(WORK, { recursive: true });
const folders: { n: number; name: string }[] = [];
for (const n of sizes) folders.push({ n, name: await ensureFolder(n) });
if (Number(values.cold) > 0) {
  await coldRuns(Number(values.cold));
  Deno.exit(0);
}
const nginx = await startNginx(WORK);
const app = await startApp(WORK, { entry: values.entry, v8Flags, cwd: values["app-dir"] });
try {
  print(`runs per point: ${runs} (after 3 warm-ups); nginx: 1 worker; ours: one Deno process`);
  print(`ours: ${values.entry}, --v8-flags=${v8Flags || "(none)"}`);
  print(`load average at start: ${Deno.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  print(
    "files   | nginx p50 / p90     | ours p50 / p90      | p50 ratio | server CPU per request (nginx / ours)",
  );
  // Past the start's own work (the search index's first walk of the bench folders).
  await new Promise((resolve) => setTimeout(resolve, Number(values["idle-s"]) * 1000));
  const idle = procMiB(app.pid, "VmRSS");
  // The start's own peak (the index's first walk) before it is reset.
  const startPeak = procMiB(app.pid, "VmHWM");
  // The peak from here on (VmHWM is reset to the current RSS).
  Deno.writeTextFileSync(`/proc/${app.pid}/clear_refs`, "5");
  for (const { n, name } of folders) {
    const ng = await measure(nginx, `/${name}/`);
    const us = await measure(app, `/api/resources/${name}/`);
    const ms = (x: number) => `${x.toFixed(1)} ms`.padStart(9);
    print(
      `${String(n).padEnd(7)} | ${ms(ng.p50)} / ${ms(ng.p90)} | ${ms(us.p50)} / ${ms(us.p90)} | ` +
        `${(us.p50 / ng.p50).toFixed(2).padStart(9)} | ${ng.cpu.toFixed(1)} ms / ${us.cpu.toFixed(1)} ms` +
        ` (JSON ${ng.bytes} / ${us.bytes} bytes)`,
    );
  }
  const mib = (x: number) => `${x.toFixed(0)} MiB`;
  print(
    `our RSS: idle ${mib(idle)} (start peak ${mib(startPeak)}), peak ${
      mib(procMiB(app.pid, "VmHWM"))
    } (goal <= idle + 96 MiB), ` +
      `after the runs ${mib(procMiB(app.pid, "VmRSS"))}`,
  );
  if (loadS > 0) {
    const name = folders[0].name;
    const count = async (server: BenchServer, path: string) => {
      let done = 0;
      const end = performance.now() + loadS * 1000;
      await Promise.all(Array.from({ length: conc }, async () => {
        while (performance.now() < end) {
          const r = await fetch(server.url + path, { headers: server.headers });
          await r.arrayBuffer();
          if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
          done++;
        }
      }));
      return done / loadS;
    };
    const ng = await count(nginx, `/${name}/`);
    const us = await count(app, `/api/resources/${name}/`);
    print(
      `${folders[0].n} files, ${conc} clients, ${loadS} s: nginx ${ng.toFixed(0)} req/s, ours ${
        us.toFixed(0)
      } req/s`,
    );
  }
  print(`our RSS after the load: ${mib(procMiB(app.pid, "VmRSS"))}`);
  if (settleS > 0) {
    await new Promise((resolve) => setTimeout(resolve, settleS * 1000));
    print(`our RSS ${settleS} s later: ${mib(procMiB(app.pid, "VmRSS"))} (goal: back near idle)`);
  }
} finally {
  await app.stop();
  await nginx.stop();
}

/** One timed GET; fails unless 200 and, when given, the body names `mustList`. */
async function timedGet(server: BenchServer, path: string, mustList?: string): Promise<number> {
  const cpu0 = serverCpuMs(server);
  const t0 = performance.now();
  const r = await fetch(server.url + path, { headers: server.headers });
  const body = await r.text();
  const ms = performance.now() - t0;
  coldCpu.set(server, serverCpuMs(server) - cpu0);
  if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
  if (mustList && !body.includes(mustList)) throw new Error(`${path}: stale listing, ${mustList} missing`);
  return ms;
}

/** `--cold`: first requests after a start and after a change, ours against nginx. */
async function coldRuns(n: number): Promise<void> {
  print(
    `cold listings: ${n} runs per point; load average at start: ${Deno.loadavg().map((x) => x.toFixed(1))}`,
  );
  print(
    `ours: ${values.entry} in ${values["app-dir"] ?? "this checkout"}, --v8-flags=${v8Flags || "(none)"}`,
  );
  print(
    "files   | first start: ours | restart: nginx p50 / ours p50 (max) | after a change: nginx p50 / ours p50 (max)",
  );
  const fmt = (xs: number[]) => `${percentile(xs, 50).toFixed(1)} ms`;
  const max = (xs: number[]) => Math.max(...xs).toFixed(1);
  const serve = (dataDir: string) =>
    startApp(WORK, { entry: values.entry, v8Flags, cwd: values["app-dir"], dataDir });
  for (const { n: files, name } of folders) {
    const start = { nginx: [] as number[], ours: [] as number[] };
    const change = { nginx: [] as number[], ours: [] as number[] };
    // Server CPU ms of the same requests (all threads; less sensitive than latency to a loaded machine).
    const cpu = { start: { nginx: 0, ours: 0 }, change: { nginx: 0, ours: 0 } };
    // The first start ever (empty database, no search index snapshot), then restarts that find their data.
    const dataDir = await Deno.makeTempDir({ prefix: "bench-cold-" });
    let first = NaN;
    try {
      for (let i = 0; i <= n; i++) {
        const app = await serve(dataDir);
        try {
          const ms = await timedGet(app, `/api/resources/${name}/`);
          if (i === 0) first = ms;
          else start.ours.push(ms);
          if (i > 0) cpu.start.ours += coldCpu.get(app)!;
        } finally {
          await app.stop();
        }
        if (i === 0) continue;
        const ng = await startNginx(WORK);
        try {
          start.nginx.push(await timedGet(ng, `/${name}/`));
          cpu.start.nginx += coldCpu.get(ng)!;
        } finally {
          await ng.stop();
        }
      }
      const ng = await startNginx(WORK);
      const app = await serve(dataDir);
      try {
        await timedGet(app, `/api/resources/${name}/`);
        for (let i = 0; i < n; i++) {
          const targets = [["nginx", ng, `/${name}/`], ["ours", app, `/api/resources/${name}/`]] as const;
          for (const [who, server, path] of targets) {
            // Warm, then change the folder: the next answer must list the new file.
            await timedGet(server, path);
            const added = `added-${who}-${i}-${Date.now()}.txt`;
            await Deno.writeTextFile(`${WORK}${name}/${added}`, "x");
            try {
              change[who].push(await timedGet(server, path, added));
              cpu.change[who] += coldCpu.get(server)!;
            } finally {
              await Deno.remove(`${WORK}${name}/${added}`);
            }
          }
        }
      } finally {
        await app.stop();
        await ng.stop();
      }
    } finally {
      await Deno.remove(dataDir, { recursive: true });
    }
    print(
      `${String(files).padEnd(7)} | ${first.toFixed(1)} ms | ${fmt(start.nginx)} / ${fmt(start.ours)} (${
        max(start.ours)
      }) | ${fmt(change.nginx)} / ${fmt(change.ours)} (${max(change.ours)})`,
    );
    const per = (x: number) => (x / n).toFixed(0);
    print(
      `${"".padEnd(7)} | server CPU per request: restart nginx ${per(cpu.start.nginx)} / ours ${
        per(cpu.start.ours)
      } ms, after a change nginx ${per(cpu.change.nginx)} / ours ${per(cpu.change.ours)} ms`,
    );
  }
}
