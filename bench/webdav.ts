/**
 * WebDAV benchmark (a script, not a test):
 *   deno run -A bench/webdav.ts [--sizes=10000,100000] [--runs=10] [--mib=1024]
 *
 * Against one server started with `--webdav`, compares
 * - `PROPFIND Depth: 1` of folders of N small files (allprop, and a `prop` list as rclone asks it) with
 *   `GET /api/resources/<folder>/`, and
 * - a PUT of a file of `--mib` MiB through `/dav/` with `POST /api/resources/<file>?override=true`, and its
 *   GET through `/dav/` with `GET /api/raw/<file>`.
 * Goal: every WebDAV figure within 1.3x of its `/api/` counterpart. Folders and the source file are kept
 * under bench/_work between runs. Also printed: the gzip size of the multistatus (what a client across a
 * network receives; loopback clients get it plain), the throughput of the big PUT and GET and the server's
 * peak RSS during each (sampled from /proc every 20 ms, Linux only; the transfers run through `curl`).
 */
import { parseArgs } from "node:util";
import { percentile, startApp } from "./_nginx.ts";

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
  },
});
const sizes = values.sizes!.split(",").map(Number);
const runs = Number(values.runs);
const mib = Number(values.mib);

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

async function timed(request: () => Promise<Response>): Promise<number> {
  const t0 = performance.now();
  const res = await request();
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  lastBytes = 0;
  if (res.body) { for await (const chunk of res.body) lastBytes += chunk.length; }
  return performance.now() - t0;
}

const PROPS = '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop>' +
  "<d:displayname/><d:getlastmodified/><d:getcontentlength/><d:resourcetype/><d:getcontenttype/>" +
  "<oc:checksums/></d:prop></d:propfind>";

async function p50(n: number, request: () => Promise<Response>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n + 2; i++) {
    const ms = await timed(request);
    if (i >= 2) times.push(ms);
  }
  return percentile(times, 50);
}

function row(what: string, dav: number, api: number): void {
  print(`| ${what} | ${dav.toFixed(0)} ms | ${api.toFixed(0)} ms | ${(dav / api).toFixed(2)}x |`);
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

async function gzipSize(request: () => Promise<Response>): Promise<number> {
  const res = await request();
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
const blob = await ensureBlob(mib);
const server = await startApp(root, { args: ["--webdav"] });
const dav = { Authorization: "Basic " + btoa(`admin:${PASSWORD}`) };
try {
  print("| operation | WebDAV | /api/ | ratio |");
  print("|---|---|---|---|");
  for (const [n, name] of folders) {
    const propfind = (body?: string) => () =>
      fetch(`${server.url}/dav/${name}/`, { method: "PROPFIND", headers: { ...dav, Depth: "1" }, body });
    const d = await p50(runs, propfind());
    const davBytes = lastBytes;
    const dp = await p50(runs, propfind(PROPS));
    const propBytes = lastBytes;
    const a = await p50(
      runs,
      () => fetch(`${server.url}/api/resources/${name}/`, { headers: server.headers }),
    );
    row(`list ${n} entries, allprop ${mb(davBytes)} vs ${mb(lastBytes)} (p50 of ${runs})`, d, a);
    row(`list ${n} entries, 6 props ${mb(propBytes)} vs ${mb(lastBytes)} (p50 of ${runs})`, dp, a);
    const gz = await gzipSize(propfind());
    const gzApi = await gzipSize(() =>
      fetch(`${server.url}/api/resources/${name}/`, { headers: server.headers })
    );
    print(`| list ${n} entries: gzip size, allprop vs JSON | ${mb(gz)} | ${mb(gzApi)} | |`);
  }
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
  row(`upload ${mib} MiB (best of 2)`, Math.min(pd1, pd2), Math.min(pa1, pa2));
  const [gd1, ga1, ga2, gd2] = [
    await measured("GET /dav/", getDav),
    await measured("GET /api/raw", getApi),
    await measured("GET /api/raw", getApi),
    await measured("GET /dav/", getDav),
  ];
  row(`download ${mib} MiB (best of 2)`, Math.min(gd1, gd2), Math.min(ga1, ga2));
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
} finally {
  await server.stop();
}
