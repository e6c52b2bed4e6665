/**
 * Request-rate benchmark (a script, not a test):
 *   deno run -A bench/requests.ts [--duration=10] [--connections=64] [--targets=raw,small,big]
 *     [--servers=nginx,Deno.serve,ours] [--app-dir=<another checkout, for a before/after>] [--v8-flags=...]
 *
 * With Debian's `wrk` (apt-get install wrk; skipped when missing), 64 keep-alive connections for `duration`
 * seconds per point, against nginx (one worker, sendfile, JSON autoindex), a bare Deno.serve
 * (bench/_bare_server.ts) and our server, in the same run:
 *   raw   — a 4 KiB file (`/api/raw/…` for ours)
 *   small — the listing of a folder of 20 files (`/api/resources/…/`)
 *   big   — the listing of a folder of 10,000 files
 * Goals (issue #14): raw >= 10,000 req/s with p99 <= 20 ms; 10k listing >= 500 req/s with p99 <= 200 ms.
 * Folders are made under bench/_work/requests/ and kept between runs. Our server runs main.ts with the
 * --v8-flags of deno.json's start task (of this checkout) unless `--v8-flags` says otherwise ("" for none).
 */
import { parseArgs } from "node:util";
import { type BenchServer, serverCpuMs, startApp, startNginx } from "./_nginx.ts";

/** Writes one line to stdout (the lint rule forbids console in this project). */
function print(line: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
}

const WORK = new URL("./_work/requests/", import.meta.url).pathname;
const HERE = new URL(".", import.meta.url).pathname;

const { values } = parseArgs({
  args: Deno.args,
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    targets: { type: "string", default: "raw,small,big" },
    servers: { type: "string", default: "nginx,Deno.serve,ours" },
    /** Run our server from another checkout (e.g. the base commit, for a before/after). */
    "app-dir": { type: "string" },
    /** Default: the --v8-flags of deno.json's start task. */
    "v8-flags": { type: "string" },
  },
});
const startTask: string = JSON.parse(Deno.readTextFileSync(`${HERE}../deno.json`)).tasks.start;
const v8Flags = values["v8-flags"] ?? startTask.match(/--v8-flags=(\S+)/)?.[1] ?? "";

function hasWrk(): boolean {
  try {
    new Deno.Command("wrk", { args: ["--version"], stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
}

async function ensureWork(): Promise<void> {
  try {
    await Deno.stat(`${WORK}.complete`);
    return;
  } catch {
    // Build it below.
  }
  await Deno.mkdir(`${WORK}small`, { recursive: true });
  await Deno.mkdir(`${WORK}big`, { recursive: true });
  const bytes = new Uint8Array(4096).map((_, i) => 32 + (i % 90));
  await Deno.writeFile(`${WORK}file-4k.bin`, bytes);
  const text = new TextEncoder().encode("some text content\n");
  for (let i = 0; i < 20; i++) await Deno.writeFile(`${WORK}small/file-${i}.txt`, text);
  for (let i = 0; i < 10_000; i++) {
    Deno.writeFileSync(`${WORK}big/file-${String(i).padStart(5, "0")}.txt`, text);
  }
  await Deno.writeTextFile(`${WORK}.complete`, "");
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function startBare(root: string): Promise<BenchServer> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${HERE}_bare_server.ts`, root, String(port)],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 400; i++) {
    try {
      await (await fetch(`${url}/file-4k.bin`)).body?.cancel();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    headers: {},
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

interface Point {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpuMsPerReq: number;
}

function toMs(value: string, unit: string): number {
  return Number(value) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit] ?? 1);
}

async function wrk(server: BenchServer, path: string): Promise<Point> {
  const args = ["-t2", `-c${values.connections}`, `-d${values.duration}s`, "--timeout", "10s", "--latency"];
  for (const [k, v] of Object.entries(server.headers)) args.push("-H", `${k}: ${v}`);
  // Warm-up (JIT, caches), then the measured run.
  await new Deno.Command("wrk", { args: ["-t1", "-c4", "-d1s", ...args.slice(3), server.url + path] })
    .output();
  const cpu0 = serverCpuMs(server);
  const out = await new Deno.Command("wrk", { args: [...args, server.url + path] }).output();
  const cpu = serverCpuMs(server) - cpu0;
  const text = new TextDecoder().decode(out.stdout);
  const pct = (p: string) => {
    const m = text.match(new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)`, "m"));
    return m ? toMs(m[1], m[2]) : NaN;
  };
  const requests = Number(text.match(/(\d+) requests in/)?.[1] ?? 0);
  const non2xx = Number(text.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  const socket = text.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const errors = non2xx + (socket ? socket.slice(1).reduce((s, x) => s + Number(x), 0) : 0);
  return {
    rps: Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? 0),
    p50: pct("50"),
    p99: pct("99"),
    errors,
    cpuMsPerReq: requests ? cpu / requests : NaN,
  };
}

if (!hasWrk()) {
  print("bench/requests.ts: skipped, `wrk` is not installed (apt-get install wrk)");
  Deno.exit(0);
}
await ensureWork();
const targets = values.targets!.split(",");
const paths: Record<string, { plain: string; ours: string }> = {
  raw: { plain: "/file-4k.bin", ours: "/api/raw/file-4k.bin" },
  small: { plain: "/small/", ours: "/api/resources/small/" },
  big: { plain: "/big/", ours: "/api/resources/big/" },
};
const servers: [string, () => Promise<BenchServer>][] = [
  ["nginx", () => startNginx(WORK)],
  ["Deno.serve", () => startBare(WORK)],
  ["ours", () => startApp(WORK, { cwd: values["app-dir"], v8Flags })],
];
print(
  `wrk, ${values.connections} connections, ${values.duration} s per point, 2 wrk threads; ours: --v8-flags=${
    v8Flags || "(none)"
  }`,
);
print(`load average at start: ${Deno.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
print("target | server     |    req/s | p50 ms | p99 ms | errors | server CPU ms/req");
for (const [name, start] of servers.filter(([n]) => values.servers!.split(",").includes(n))) {
  const server = await start();
  try {
    for (const target of targets) {
      const p = await wrk(server, name === "ours" ? paths[target].ours : paths[target].plain);
      print(
        `${target.padEnd(6)} | ${name.padEnd(10)} | ${p.rps.toFixed(0).padStart(8)} | ${
          p.p50.toFixed(1).padStart(6)
        } | ${p.p99.toFixed(1).padStart(6)} | ${String(p.errors).padStart(6)} | ${p.cpuMsPerReq.toFixed(3)}`,
      );
    }
  } finally {
    await server.stop();
  }
}
