/**
 * Download benchmark (a script, not a test):
 *   deno run -A bench/download.ts [--size-mib=1024] [--runs=5] [--range=none|open|bounded] [--app-dir=<checkout>]
 *
 * Creates bench/_work/download-<size>.bin (random, kept between runs), then downloads it with curl
 * (so the client costs the same for both) from our `GET /api/raw/…` and from nginx (sendfile), and
 * reports the median throughput of each. Goal: ours ≥ 0.85× nginx. `--range=open` asks for `bytes=1-` (a resumed
 * download), `--range=bounded` for `bytes=1-<size-2>`; the goal there is server CPU per GiB ≤ 1.5× nginx.
 */
import { parseArgs } from "node:util";
import { type BenchServer, percentile, serverCpuMs, startApp, startNginx } from "./_nginx.ts";

/** Writes one line to stdout (the lint rule forbids console in this project). */
function print(line: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
}

const WORK = new URL("./_work/", import.meta.url).pathname;
const MIB = 1024 * 1024;

const { values } = parseArgs({
  args: Deno.args,
  options: {
    "size-mib": { type: "string", default: "1024" },
    runs: { type: "string", default: "5" },
    range: { type: "string", default: "none" },
    /** Run our server from another checkout (e.g. the base commit, for a before/after). */
    "app-dir": { type: "string" },
  },
});
const sizeMib = Number(values["size-mib"]);
const runs = Number(values.runs);
const name = `download-${sizeMib}.bin`;
const rangeArgs = values.range === "open"
  ? ["-r", "1-"]
  : values.range === "bounded"
  ? ["-r", `1-${sizeMib * MIB - 2}`]
  : [];
const expected = sizeMib * MIB - (values.range === "open" ? 1 : values.range === "bounded" ? 2 : 0);

async function ensureFile(): Promise<void> {
  try {
    if ((await Deno.stat(`${WORK}${name}`)).size === sizeMib * MIB) return;
  } catch {
    // Create it below.
  }
  await Deno.mkdir(WORK, { recursive: true });
  using f = await Deno.open(`${WORK}${name}`, { write: true, create: true, truncate: true });
  const chunk = new Uint8Array(MIB);
  for (let i = 0; i < sizeMib; i++) {
    crypto.getRandomValues(chunk.subarray(0, 65536));
    await f.write(chunk);
  }
}

function curl(server: BenchServer, path: string): { mibps: number; bytes: number } {
  const args = ["-s", "-o", "/dev/null", "-w", "%{size_download} %{time_total}", ...rangeArgs];
  for (const [k, v] of Object.entries(server.headers)) args.push("-H", `${k}: ${v}`);
  args.push(server.url + path);
  const out = new Deno.Command("curl", { args, stdout: "piped" }).outputSync();
  const [bytes, secs] = new TextDecoder().decode(out.stdout).trim().split(" ").map(Number);
  if (bytes !== expected) throw new Error(`${path}: got ${bytes} bytes`);
  return { mibps: bytes / MIB / secs, bytes };
}

function measure(server: BenchServer, path: string): { speeds: number[]; cpuMsPerGib: number } {
  curl(server, path); // warm-up (page cache, JIT)
  const cpu0 = serverCpuMs(server);
  const speeds = Array.from({ length: runs }, () => curl(server, path).mibps);
  return { speeds, cpuMsPerGib: (serverCpuMs(server) - cpu0) / runs / (sizeMib / 1024) };
}

await ensureFile();
const nginx = await startNginx(WORK);
const app = await startApp(WORK, { cwd: values["app-dir"] });
try {
  print(`load average at start: ${Deno.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  const ngm = measure(nginx, `/${name}`);
  const usm = measure(app, `/api/raw/${name}`);
  const ng = ngm.speeds, us = usm.speeds;
  const n50 = percentile(ng, 50), u50 = percentile(us, 50);
  print(`${sizeMib} MiB file, range: ${values.range}, ${runs} runs each (curl, after a warm-up)`);
  print(`nginx: median ${n50.toFixed(0)} MiB/s  (runs: ${ng.map((x) => x.toFixed(0)).join(", ")})`);
  print(`ours:  median ${u50.toFixed(0)} MiB/s  (runs: ${us.map((x) => x.toFixed(0)).join(", ")})`);
  print(`ratio ours/nginx: ${(u50 / n50).toFixed(2)} (goal ≥ 0.85)`);
  print(
    `server CPU per GiB sent: nginx ${ngm.cpuMsPerGib.toFixed(0)} ms, ours ${usm.cpuMsPerGib.toFixed(0)} ms`,
  );
} finally {
  await app.stop();
  await nginx.stop();
}
