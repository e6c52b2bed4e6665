/**
 * Benchmark: 1 GiB through tus in 10 MiB chunks against our server (main.ts in a subprocess) and against
 * @tus/server 2.x with its FileStore on Node (bench/_tus_node_server.mjs), next to a raw write of the same size
 * (`dd if=/dev/zero bs=10M count=102 conv=fdatasync`), in the same run, rounds interleaved; medians reported.
 *
 *   deno run -A bench/upload.ts [--mib 1024] [--chunk-mib 10] [--rounds 3]
 *
 * @tus/server is installed into bench/_work/tus_node (git-ignored) with `npm --prefix` on first use. The client
 * (this process) sends the same pre-filled 10 MiB buffer for every chunk over one keep-alive connection.
 * Server RSS is sampled from /proc every 50 ms; "growth" is the peak during the upload minus the RSS right
 * before it (after a 20 MiB warm-up upload). Server CPU time (utime + stime) per GiB is reported too: unlike
 * MiB/s it does not depend on how busy the (shared, 2-core) machine is. Our server fdatasyncs the file before
 * moving it into place; @tus/server does not, so its time is also shown with a `sync` of the file afterwards.
 */
const WORK = new URL("./_work/upload/", import.meta.url).pathname;
const TUS_NODE = new URL("./_work/tus_node/", import.meta.url).pathname;
const NODE_SERVER = new URL("./_tus_node_server.mjs", import.meta.url).pathname;
const MAIN = new URL("../main.ts", import.meta.url).pathname;
const MIB = 1024 * 1024;
const PASSWORD = "bench-password-not-secret";

function print(line: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
}

function argNumber(name: string, fallback: number): number {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
}

async function run(cmd: string, args: string[], options: { cwd?: string } = {}): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd: options.cwd, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed:\n${text}`);
  return text;
}

async function ensureTusNode(): Promise<void> {
  try {
    await Deno.stat(`${TUS_NODE}node_modules/@tus/file-store/package.json`);
    return;
  } catch {
    print("installing @tus/server + @tus/file-store for Node into bench/_work/tus_node ...");
  }
  await Deno.mkdir(TUS_NODE, { recursive: true });
  await run("npm", [
    "install",
    "--prefix",
    TUS_NODE,
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    "@tus/server@2.4.5",
    "@tus/file-store@2.1.1",
  ]);
}

/** A child server: its pid, its base URL, and a way to stop it. */
interface ChildServer {
  pid: number;
  base: string;
  stop(): Promise<void>;
}

async function startChild(cmd: string, args: string[], portPattern: RegExp): Promise<ChildServer> {
  const child = new Deno.Command(cmd, { args, stdout: "piped", stderr: "inherit", stdin: "null" }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let port = 0;
  while (!port) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`${cmd} exited before listening:\n${seen}`);
    seen += value;
    const m = seen.match(portPattern);
    if (m) port = Number(m[1]);
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })().catch(() => {});
  return {
    pid: child.pid,
    base: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** User + system CPU seconds of a process so far. */
function cpuSeconds(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssKiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
}

/** Uploads `size` bytes with tus in `chunk`-byte PATCHes; returns seconds and the server RSS growth (MiB). */
async function tusUpload(
  server: ChildServer,
  options: {
    createUrl: string;
    headers: Record<string, string>;
    size: number;
    chunk: Uint8Array<ArrayBuffer>;
  },
): Promise<{ seconds: number; rssGrowthMiB: number; cpu: number; patchMs: number; lastMs: number }> {
  const client = Deno.createHttpClient({});
  const before = rssKiB(server.pid);
  const cpuBefore = cpuSeconds(server.pid);
  let peak = before;
  const sampler = setInterval(() => peak = Math.max(peak, rssKiB(server.pid)), 50);
  const t0 = performance.now();
  try {
    const created = await fetch(options.createUrl, {
      method: "POST",
      headers: { ...options.headers, "Tus-Resumable": "1.0.0", "Upload-Length": String(options.size) },
      client,
    });
    await created.body?.cancel();
    if (created.status !== 201) throw new Error(`create: ${created.status}`);
    const location = new URL(created.headers.get("Location")!, options.createUrl).toString();
    let offset = 0;
    const patchMs: number[] = [];
    while (offset < options.size) {
      const started = performance.now();
      const n = Math.min(options.chunk.length, options.size - offset);
      const res = await fetch(location, {
        method: "PATCH",
        headers: {
          ...options.headers,
          "Tus-Resumable": "1.0.0",
          "Upload-Offset": String(offset),
          "Content-Type": "application/offset+octet-stream",
        },
        body: n === options.chunk.length ? options.chunk : options.chunk.subarray(0, n),
        client,
      });
      await res.body?.cancel();
      if (res.status !== 204) throw new Error(`PATCH at ${offset}: ${res.status}`);
      offset = Number(res.headers.get("Upload-Offset"));
      patchMs.push(performance.now() - started);
    }
    const lastMs = patchMs.pop() ?? 0;
    const seconds = (performance.now() - t0) / 1000;
    peak = Math.max(peak, rssKiB(server.pid));
    return {
      seconds,
      rssGrowthMiB: (peak - before) / 1024,
      cpu: cpuSeconds(server.pid) - cpuBefore,
      patchMs: median(patchMs),
      lastMs,
    };
  } finally {
    clearInterval(sampler);
    client.close();
  }
}

async function startOurs(dir: string): Promise<{ server: ChildServer; token: string }> {
  const server = await startChild(Deno.execPath(), [
    "run",
    "-A",
    MAIN,
    "--port",
    "0",
    "--root",
    `${dir}/root`,
    "--database",
    `${dir}/db/fb.kv`,
    "--upload-dir",
    `${dir}/uploads`,
    "--cache-dir",
    `${dir}/cache`,
    "--password",
    PASSWORD,
  ], /listening on http:\/\/[^:]+:(\d+)/);
  const res = await fetch(`${server.base}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: "admin", password: PASSWORD }),
  });
  const token = (await res.text()).trim();
  if (res.status !== 200) throw new Error(`login: ${res.status} ${token}`);
  return { server, token };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function fileSize(path: string): Promise<number> {
  return (await Deno.stat(path)).size;
}

async function main(): Promise<void> {
  const size = argNumber("mib", 1024) * MIB;
  const chunkSize = argNumber("chunk-mib", 10) * MIB;
  const rounds = argNumber("rounds", 3);
  await ensureTusNode();
  await Deno.remove(WORK, { recursive: true }).catch(() => {});
  await Deno.mkdir(WORK, { recursive: true });
  const chunk = new Uint8Array(chunkSize);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 2654435761) >>> 24;
  const ddCount = Math.floor(size / chunkSize);

  const results = {
    ours: [] as number[],
    node: [] as number[],
    nodeSync: [] as number[],
    dd: [] as number[],
  };
  const rss = { ours: [] as number[], node: [] as number[] };
  /** Server CPU seconds per GiB: independent of how busy the machine is. */
  const cpu = { ours: [] as number[], node: [] as number[] };
  print(`upload benchmark: ${size / MIB} MiB in ${chunkSize / MIB} MiB chunks, ${rounds} rounds`);

  for (let r = 1; r <= rounds; r++) {
    // Ours.
    const oursDir = `${WORK}ours`;
    const { server, token } = await startOurs(oursDir);
    try {
      const warm = { headers: { "X-Auth": token }, chunk, size: 20 * MIB };
      await tusUpload(server, { ...warm, createUrl: `${server.base}/api/tus/warmup.bin?override=true` });
      await run("sync", []);
      const res = await tusUpload(server, {
        createUrl: `${server.base}/api/tus/bench.bin?override=true`,
        headers: { "X-Auth": token },
        size,
        chunk,
      });
      if (await fileSize(`${oursDir}/root/bench.bin`) !== size) throw new Error("ours: wrong file size");
      results.ours.push(size / MIB / res.seconds);
      rss.ours.push(res.rssGrowthMiB);
      cpu.ours.push(res.cpu / (size / 1024 / MIB));
      print(
        `  round ${r} ours:        ${(size / MIB / res.seconds).toFixed(0)} MiB/s, RSS +${
          res.rssGrowthMiB.toFixed(1)
        } MiB, CPU ${res.cpu.toFixed(2)} s, PATCH median ${res.patchMs.toFixed(0)} ms, last ${
          res.lastMs.toFixed(0)
        } ms`,
      );
    } finally {
      await server.stop();
    }
    await Deno.remove(oursDir, { recursive: true });
    await run("sync", []);

    // @tus/server FileStore on Node.
    const nodeDir = `${WORK}node`;
    await Deno.mkdir(nodeDir, { recursive: true });
    const node = await startChild(
      "node",
      [NODE_SERVER, `${TUS_NODE}node_modules`, nodeDir],
      /listening (\d+)/,
    );
    try {
      await tusUpload(node, { createUrl: `${node.base}/files`, headers: {}, chunk, size: 20 * MIB });
      await run("sync", []);
      const t0 = performance.now();
      const res = await tusUpload(node, { createUrl: `${node.base}/files`, headers: {}, size, chunk });
      // Same durability as ours and dd: flush the file (the store keeps it under its id, next to a .json).
      const files = [...Deno.readDirSync(nodeDir)].filter((e) => !e.name.endsWith(".json"));
      const biggest = files.map((e) => `${nodeDir}/${e.name}`).find((p) => Deno.statSync(p).size === size);
      if (!biggest) throw new Error("node: uploaded file not found");
      await run("sync", [biggest]);
      const withSync = (performance.now() - t0) / 1000;
      results.node.push(size / MIB / res.seconds);
      results.nodeSync.push(size / MIB / withSync);
      rss.node.push(res.rssGrowthMiB);
      cpu.node.push(res.cpu / (size / 1024 / MIB));
      print(
        `  round ${r} @tus/server: ${(size / MIB / res.seconds).toFixed(0)} MiB/s ` +
          `(${(size / MIB / withSync).toFixed(0)} MiB/s with fsync), RSS +${
            res.rssGrowthMiB.toFixed(1)
          } MiB, ` +
          `CPU ${res.cpu.toFixed(2)} s, PATCH median ${res.patchMs.toFixed(0)} ms, last ${
            res.lastMs.toFixed(0)
          } ms`,
      );
    } finally {
      await node.stop();
    }
    await Deno.remove(nodeDir, { recursive: true });
    await run("sync", []);

    // Raw write.
    const t0 = performance.now();
    await run("dd", [
      "if=/dev/zero",
      `of=${WORK}dd.bin`,
      `bs=${chunkSize / MIB}M`,
      `count=${ddCount}`,
      "conv=fdatasync",
    ]);
    const ddSeconds = (performance.now() - t0) / 1000;
    results.dd.push((ddCount * chunkSize) / MIB / ddSeconds);
    print(`  round ${r} dd:          ${((ddCount * chunkSize) / MIB / ddSeconds).toFixed(0)} MiB/s`);
    await Deno.remove(`${WORK}dd.bin`);
    await run("sync", []);
  }

  const ours = median(results.ours), node = median(results.node), nodeSync = median(results.nodeSync);
  const dd = median(results.dd);
  print("");
  print(
    `median ours:                 ${ours.toFixed(0)} MiB/s, RSS growth max ${
      Math.max(...rss.ours).toFixed(1)
    } MiB`,
  );
  print(
    `median @tus/server (Node):   ${node.toFixed(0)} MiB/s (${
      nodeSync.toFixed(0)
    } MiB/s incl. fsync), RSS growth max ${Math.max(...rss.node).toFixed(1)} MiB`,
  );
  print(`median dd conv=fdatasync:    ${dd.toFixed(0)} MiB/s`);
  print(
    `ours / @tus/server:          ${(ours / node).toFixed(2)}x (goal >= 1.2x); incl. its fsync ${
      (ours / nodeSync).toFixed(2)
    }x`,
  );
  print(`ours / raw write:            ${((ours / dd) * 100).toFixed(0)} % (goal >= 60 %)`);
  print(
    `server CPU per GiB:          ours ${median(cpu.ours).toFixed(2)} s, @tus/server ${
      median(cpu.node).toFixed(2)
    } s ` +
      `(${(median(cpu.node) / median(cpu.ours)).toFixed(2)}x less CPU; load average ${
        Deno.loadavg()[0].toFixed(1)
      })`,
  );
  print(`our RSS growth:              ${Math.max(...rss.ours).toFixed(1)} MiB (goal <= 64 MiB)`);
  await Deno.remove(WORK, { recursive: true }).catch(() => {});
}

await main();
