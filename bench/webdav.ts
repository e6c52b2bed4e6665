/**
 * WebDAV benchmark (a script, not a test):
 *   deno run -A bench/webdav.ts [--sizes=10000,100000] [--runs=10] [--mib=1024] [--server=<checkout>]
 *     [--client=fetch|curl]
 *
 * Against one server started with `--webdav`, compares
 * - `PROPFIND Depth: 1` of folders of N small files (allprop, and a `prop` list as rclone asks it) with
 *   `GET /api/resources/<folder>/`: warm (the folder unchanged since the last request: both answers come from
 *   their caches) and cold (a file created or removed in the folder just before each request, so both read
 *   and render it again). Same client (Deno's fetch, or curl with `--client=curl`: Deno's fetch
 *   reads a big body several times slower than curl, which hides the server's share), same headers
 *   (`Accept-Encoding: identity`; loopback clients get plain answers anyway), requests interleaved so that load
 *   drift hits both sides alike, measured once the server is idle after its start. Printed per row: p50 wall
 *   time, the server's CPU time per request (from /proc, 10 ms ticks summed over the runs: steadier than wall
 *   time on a loaded machine) and the ratios;
 * - the gzip size of each answer (what a client across a network receives when it accepts gzip);
 * - a PUT of a file of `--mib` MiB (0 skips the transfers) through `/dav/` with
 *   `POST /api/resources/<file>?override=true`, and its GET through `/dav/` with `GET /api/raw/<file>`.
 * Goal: every WebDAV figure within 1.3x of its `/api/` counterpart. `--server` runs the server from another
 * checkout (before/after comparisons on the same folders). Folders and the source file are kept under
 * bench/_work between runs. The transfers run through `curl`, with the server's peak RSS sampled from /proc
 * every 20 ms (Linux only).
 */
import { parseArgs } from "node:util";
import { percentile, serverCpuMs, startApp } from "./_nginx.ts";

function print(line: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
}

const WORK = new URL("./_work/", import.meta.url).pathname;
/** The admin password bench/_nginx.ts starts the server with. */
const PASSWORD = "bench-password-123456";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "10000,100000" },
    runs: { type: "string", default: "10" },
    mib: { type: "string", default: "1024" },
    server: { type: "string" },
    client: { type: "string", default: "fetch" },
  },
});
const sizes = values.sizes!.split(",").map(Number);
const runs = Number(values.runs);
const mib = Number(values.mib);
/** `fetch` (Deno's, in this process) or `curl` (its own timing, without the process start). */
const client = values.client === "curl" ? "curl" : "fetch";

async function ensureFolder(root: string, n: number): Promise<string> {
  const name = `dav-list-${n}`;
  const dir = `${root}/${name}`;
  if (await Deno.stat(`${dir}.complete`).then(() => true, () => false)) return name;
  await Deno.mkdir(dir, { recursive: true });
  const data = new TextEncoder().encode("some text content\n");
  for (let i = 0; i < n; i++) Deno.writeFileSync(`${dir}/file-${String(i).padStart(6, "0")}.txt`, data);
  await Deno.writeTextFile(`${dir}.complete`, "");
  return name;
}

async function ensureBlob(n: number): Promise<string> {
  const path = `${WORK}blob-${n}MiB.bin`;
  if ((await Deno.stat(path).catch(() => null))?.size === n * 1024 * 1024) return path;
  using f = await Deno.open(path, { write: true, create: true, truncate: true });
  const chunk = crypto.getRandomValues(new Uint8Array(65536));
  for (let i = 0; i < n * 16; i++) await f.write(chunk);
  return path;
}

/** Bytes of the last body read by {@link timed}. */
let lastBytes = 0;

/** One request of the comparison, as either client sends it. */
interface Req {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

function send(req: Req): Promise<Response> {
  return fetch(req.url, { method: req.method, headers: req.headers, body: req.body });
}

/** The wall time of `req` with the chosen client, body read to the end (curl: its own `time_total`). */
async function timed(req: Req): Promise<number> {
  if (client === "curl") {
    const args = ["-sS", "-f", "-o", "/dev/null", "-w", "%{time_total} %{size_download}", "-X", req.method];
    for (const [k, v] of Object.entries(req.headers)) args.push("-H", `${k}: ${v}`);
    if (req.body !== undefined) args.push("--data-binary", req.body);
    const out = await new Deno.Command("curl", { args: [...args, req.url] }).output();
    if (!out.success) throw new Error(`curl ${req.url}: ${new TextDecoder().decode(out.stderr)}`);
    const [seconds, bytes] = new TextDecoder().decode(out.stdout).split(" ").map(Number);
    lastBytes = bytes;
    return seconds * 1000;
  }
  const t0 = performance.now();
  const res = await send(req);
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  lastBytes = 0;
  if (res.body) { for await (const chunk of res.body) lastBytes += chunk.length; }
  return performance.now() - t0;
}

const PROPS = '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop>' +
  "<d:displayname/><d:getlastmodified/><d:getcontentlength/><d:resourcetype/><d:getcontenttype/>" +
  "<oc:checksums/></d:prop></d:propfind>";

/** One kind of request measured: its wall times, the server CPU it used and the size of its answer. */
interface Series {
  times: number[];
  cpuMs: number;
  bytes: number;
}

/**
 * Runs every request of `kinds` once per round, interleaved (2 warm-up rounds first), each after `before`
 * (which changes the folder for cold figures); returns the series by kind.
 */
async function measure(
  kinds: Record<string, Req>,
  options: { before?: () => Promise<void> } = {},
): Promise<Record<string, Series>> {
  const out: Record<string, Series> = {};
  for (const k of Object.keys(kinds)) out[k] = { times: [], cpuMs: 0, bytes: 0 };
  for (let round = 0; round < runs + 2; round++) {
    for (const [k, request] of Object.entries(kinds)) {
      await options.before?.();
      const cpu0 = serverCpuMs(server);
      const ms = await timed(request);
      const cpu = serverCpuMs(server) - cpu0;
      if (round < 2) continue;
      out[k].times.push(ms);
      out[k].cpuMs += cpu;
      out[k].bytes = lastBytes;
    }
  }
  return out;
}

function row(what: string, dav: Series, api: Series): void {
  const p50 = (s: Series) => percentile(s.times, 50);
  const cpu = (s: Series) => s.cpuMs / s.times.length;
  print(
    `| ${what} | ${mb(dav.bytes)} vs ${mb(api.bytes)} | ${p50(dav).toFixed(1)} ms | ${
      p50(api).toFixed(1)
    } ms | ` +
      `${(p50(dav) / p50(api)).toFixed(2)}x | ${cpu(dav).toFixed(1)} ms | ${cpu(api).toFixed(1)} ms | ` +
      `${(cpu(dav) / cpu(api)).toFixed(2)}x |`,
  );
}

/** Runs `op` while sampling the server's RSS; returns its result and the highest RSS seen, in bytes. */
async function withPeakRss<T>(pid: number, op: () => Promise<T>): Promise<[T, number]> {
  const rss = () => {
    try {
      const status = Deno.readTextFileSync(`/proc/${pid}/status`);
      return Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0) * 1024;
    } catch {
      return 0;
    }
  };
  let peak = rss();
  const timer = setInterval(() => peak = Math.max(peak, rss()), 20);
  try {
    const result = await op();
    return [result, Math.max(peak, rss())];
  } finally {
    clearInterval(timer);
  }
}

async function gzipSize(req: Req): Promise<number> {
  const res = await send(req);
  const gz = res.body!.pipeThrough(
    new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
  );
  let n = 0;
  for await (const chunk of gz) n += chunk.length;
  return n;
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

const root = `${WORK}webdav-root`;
await Deno.mkdir(root, { recursive: true });
const folders = [];
for (const n of sizes) folders.push([n, await ensureFolder(root, n)] as const);
const blob = mib > 0 ? await ensureBlob(mib) : "";
const server = await startApp(root, { args: ["--webdav"], cwd: values.server });
const dav = { Authorization: "Basic " + btoa(`admin:${PASSWORD}`) };
const plain = { "Accept-Encoding": "identity" };
try {
  await settle();
  print(
    `server: ${values.server ?? "this checkout"}, client: ${client}, p50 of ${runs} interleaved runs, ` +
      `load ${loadAverage()}`,
  );
  print("");
  print(
    "| PROPFIND Depth 1 vs GET /api/resources | body | WebDAV | /api/ | ratio | CPU WebDAV | CPU /api/ | ratio |",
  );
  print("|---|---|---|---|---|---|---|---|");
  for (const [n, name] of folders) {
    const propfind = (body?: string): Req => ({
      method: "PROPFIND",
      url: `${server.url}/dav/${name}/`,
      headers: { ...dav, ...plain, Depth: "1" },
      body,
    });
    const kinds = {
      allprop: propfind(),
      props: propfind(PROPS),
      api: {
        method: "GET",
        url: `${server.url}/api/resources/${name}/`,
        headers: { ...server.headers, ...plain },
      },
    };
    const warm = await measure(kinds);
    row(`${n} entries warm, allprop`, warm.allprop, warm.api);
    row(`${n} entries warm, 6 props`, warm.props, warm.api);
    // Cold: a file appears or goes just before each request (the entry count stays within one of n).
    const extra = `${root}/${name}/zz-cold.txt`;
    let present = false;
    const change = async () => {
      if (present) await Deno.remove(extra);
      else await Deno.writeTextFile(extra, "x");
      present = !present;
      // Past the window in which the folder's mtime cannot tell this change from a later one.
      await new Promise((r) => setTimeout(r, 50));
    };
    const cold = await measure(kinds, { before: change });
    if (present) await Deno.remove(extra);
    row(`${n} entries cold, allprop`, cold.allprop, cold.api);
    row(`${n} entries cold, 6 props`, cold.props, cold.api);
    const gz = await gzipSize(kinds.allprop);
    const gzProps = await gzipSize(kinds.props);
    const gzApi = await gzipSize(kinds.api);
    print(
      `| ${n} entries, gzip size: allprop ${mb(gz)}, 6 props ${mb(gzProps)}, JSON ${
        mb(gzApi)
      } | | | | | | | |`,
    );
  }
  if (mib > 0) await transfers();
} finally {
  await server.stop();
}

/** Waits (at most 2 minutes) until the server is idle: its start-up work (the filename index) would count as CPU. */
async function settle(): Promise<void> {
  const end = Date.now() + 120_000;
  while (Date.now() < end) {
    const cpu0 = serverCpuMs(server);
    await new Promise((r) => setTimeout(r, 1000));
    if (serverCpuMs(server) - cpu0 <= 30) return;
  }
}

function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "?";
  }
}

function timeRow(what: string, dav: number, api: number): void {
  print(`| ${what} | ${dav.toFixed(0)} ms | ${api.toFixed(0)} ms | ${(dav / api).toFixed(2)}x |`);
}

async function transfers(): Promise<void> {
  print("");
  print("| transfer | WebDAV | /api/ | ratio |");
  print("|---|---|---|---|");
  // The big transfers go through curl: Deno's fetch streaming a file body is itself the bottleneck (a few
  // MB/s on a loaded machine), which would hide the server's figures.
  const curl = async (args: string[]) => {
    const t0 = performance.now();
    const out = await new Deno.Command("curl", { args: ["-sS", "-f", "-o", "/dev/null", ...args] }).output();
    if (!out.success) throw new Error(`curl ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
    return performance.now() - t0;
  };
  const auth = (h: Record<string, string>) => Object.entries(h).flatMap(([k, v]) => ["-H", `${k}: ${v}`]);
  const putDav = () => curl([...auth(dav), "-T", blob, `${server.url}/dav/blob.bin`]);
  const putApi = () =>
    curl([
      ...auth(server.headers),
      "-X",
      "POST",
      "-T",
      blob,
      `${server.url}/api/resources/blob-api.bin?override=true`,
    ]);
  const getDav = () => curl([...auth(dav), `${server.url}/dav/blob.bin`]);
  const getApi = () => curl([...auth(server.headers), `${server.url}/api/raw/blob-api.bin`]);
  // A-B-B-A, best of two each: the disk is shared, so order and neighbours move single figures a lot.
  const peaks: Record<string, number> = {};
  const measured = async (what: string, op: () => Promise<number>) => {
    const [ms, peak] = await withPeakRss(server.pid, op);
    peaks[what] = Math.max(peaks[what] ?? 0, peak);
    return ms;
  };
  const idle = await withPeakRss(server.pid, () => Promise.resolve(0)).then(([, rss]) => rss);
  const [pd1, pa1, pa2, pd2] = [
    await measured("PUT /dav/", putDav),
    await measured("POST /api/", putApi),
    await measured("POST /api/", putApi),
    await measured("PUT /dav/", putDav),
  ];
  timeRow(`upload ${mib} MiB (best of 2)`, Math.min(pd1, pd2), Math.min(pa1, pa2));
  const [gd1, ga1, ga2, gd2] = [
    await measured("GET /dav/", getDav),
    await measured("GET /api/raw", getApi),
    await measured("GET /api/raw", getApi),
    await measured("GET /dav/", getDav),
  ];
  timeRow(`download ${mib} MiB (best of 2)`, Math.min(gd1, gd2), Math.min(ga1, ga2));
  const rate = (ms: number) => `${(mib * 1.048576 / (ms / 1000)).toFixed(0)} MB/s`;
  print("");
  print(`| transfer of ${mib} MiB | throughput (best of 2) | server peak RSS | RSS before |`);
  print("|---|---|---|---|");
  const mib0 = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  for (
    const [what, ms] of [
      ["PUT /dav/", Math.min(pd1, pd2)],
      ["POST /api/", Math.min(pa1, pa2)],
      ["GET /dav/", Math.min(gd1, gd2)],
      ["GET /api/raw", Math.min(ga1, ga2)],
    ] as const
  ) {
    print(`| ${what} | ${rate(ms)} | ${mib0(peaks[what])} | ${mib0(idle)} |`);
  }
  await fetch(`${server.url}/dav/blob.bin`, { method: "DELETE", headers: dav }).then((r) => r.body?.cancel());
  await fetch(`${server.url}/dav/blob-api.bin`, { method: "DELETE", headers: dav }).then((r) =>
    r.body?.cancel()
  );
}
