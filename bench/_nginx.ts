/**
 * Benchmark servers: nginx (Debian's /usr/sbin/nginx, one worker, sendfile, JSON autoindex) and our own
 * server (`deno run -A main.ts` in a child process), both on 127.0.0.1 and stopped by the caller.
 */

const ROOT = new URL("..", import.meta.url).pathname;

/** A running server. */
export interface BenchServer {
  url: string;
  /** Headers every request needs (X-Auth for ours). */
  headers: Record<string, string>;
  pid: number;
  stop(): Promise<void>;
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      await r.body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`no answer from ${url}`);
}

/** Starts nginx serving `root` with `autoindex_format json` on a free port. */
export async function startNginx(root: string, options: { workers?: number } = {}): Promise<BenchServer> {
  const dir = await Deno.makeTempDir({ prefix: "bench-nginx-" });
  const port = freePort();
  const conf = `
daemon off;
master_process on;
worker_processes ${options.workers ?? 1};
user root;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  types { application/octet-stream bin; text/plain txt; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { autoindex on; autoindex_format json; }
  }
}
`;
  await Deno.writeTextFile(`${dir}/nginx.conf`, conf);
  const child = new Deno.Command("/usr/sbin/nginx", {
    args: ["-c", `${dir}/nginx.conf`, "-p", dir],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/`);
  return {
    url,
    headers: {},
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await child.stderr.cancel().catch(() => {});
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Starts our server on `root` (admin scope = root) and logs in as the admin. */
export async function startApp(
  root: string,
  options: {
    args?: string[];
    cwd?: string;
    v8Flags?: string;
    entry?: string;
    /** Database and cache folder to use and keep (a restart finds its data); default: a fresh one, removed. */
    dataDir?: string;
  } = {},
): Promise<BenchServer> {
  const dir = options.dataDir ?? await Deno.makeTempDir({ prefix: "bench-app-" });
  const password = "bench-password-123456";
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...(options.v8Flags ? [`--v8-flags=${options.v8Flags}`] : []),
      options.entry ?? "main.ts",
      "--port",
      "0",
      "--root",
      root,
      "--database",
      `${dir}/kv`,
      "--cache-dir",
      `${dir}/cache`,
      ...(options.args ?? []),
    ],
    cwd: options.cwd ?? ROOT,
    env: { FB_ADMIN_PASSWORD: password },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let log = "";
  let port = 0;
  const watchdog = setTimeout(() => child.kill("SIGKILL"), 60_000);
  while (!port) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server did not start:\n${log}`);
    log += value;
    port = Number(log.match(/listening on http:\/\/[^:]+:(\d+)\//)?.[1] ?? 0);
  }
  clearTimeout(watchdog);
  (async () => {
    while (!(await reader.read()).done);
  })();
  const url = `http://127.0.0.1:${port}`;
  const login = await fetch(`${url}/api/login`, {
    method: "POST",
    body: JSON.stringify({ username: "admin", password }),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  return {
    url,
    headers: { "X-Auth": await login.text() },
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      if (!options.dataDir) await Deno.remove(dir, { recursive: true });
    },
  };
}

/** The p-th percentile (0-100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

function procCpuMs(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * 10; // utime + stime, 10 ms clock ticks
  } catch {
    return 0;
  }
}

function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) out.push(Number(e.name));
    } catch {
      // Process ended meanwhile.
    }
  }
  return out;
}

/** CPU time (user + system, ms) used so far by a server process and its direct children (nginx workers). */
export function serverCpuMs(server: BenchServer): number {
  return [server.pid, ...childPids(server.pid)].reduce((sum, pid) => sum + procCpuMs(pid), 0);
}
