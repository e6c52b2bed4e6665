/**
 * Login benchmark: /health latency while 64 logins (bcrypt cost 10) are in flight at all times, and logins per second.
 * Starts the real server (`main.ts`, with the start task's --v8-flags) on a temp database and keeps 64 connections logging in
 * for a few seconds while another connection polls /health every 10 ms.
 * Run: deno run -A bench/login.ts [seconds=10] [concurrency=64]. Goal (issue #9): /health p99 < 50 ms.
 */
const seconds = Number(Deno.args[0] ?? 10);
const concurrency = Number(Deno.args[1] ?? 64);
const root = new URL("..", import.meta.url).pathname;
const PASSWORD = "bench-password-123";
/** The --v8-flags of deno.json's start task, so the server runs as `deno task start` runs it. */
const startTask: string = JSON.parse(Deno.readTextFileSync(`${root}deno.json`)).tasks.start;
const v8Flags = startTask.match(/--v8-flags=\S+/g) ?? [];

function freePort(): number {
  const l = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

const dir = await Deno.makeTempDir({ prefix: "fb-bench-login-" });
const port = freePort();
const base = `http://127.0.0.1:${port}`;
const server = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    ...v8Flags,
    "main.ts",
    "--port",
    String(port),
    "--database",
    `${dir}/db.kv`,
  ],
  cwd: root,
  env: { FB_ADMIN_PASSWORD: PASSWORD, FB_LOGIN_RATE_LIMIT: "100000", FB_LOG_LEVEL: "warn" },
  stdout: "null",
  stderr: "inherit",
}).spawn();

try {
  for (;;) {
    const ok = await fetch(`${base}/health`).then(
      async (r) => (await r.body?.cancel(), r.status === 200),
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const body = JSON.stringify({ username: "admin", password: PASSWORD });
  const clients = Array.from({ length: concurrency }, () => Deno.createHttpClient({}));
  const healthClient = Deno.createHttpClient({});
  const end = performance.now() + seconds * 1000;
  let logins = 0, failures = 0;
  const workers = clients.map(async (client) => {
    while (performance.now() < end) {
      const res = await fetch(`${base}/api/login`, { method: "POST", body, client });
      await res.body?.cancel();
      if (res.status === 200) logins++;
      else failures++;
    }
  });
  const health: number[] = [];
  const t0 = performance.now();
  while (performance.now() < end) {
    const start = performance.now();
    const res = await fetch(`${base}/health`, { client: healthClient });
    await res.body?.cancel();
    health.push(performance.now() - start);
    await new Promise((r) => setTimeout(r, 10));
  }
  await Promise.all(workers);
  const elapsed = (performance.now() - t0) / 1000;
  for (const c of clients) c.close();
  healthClient.close();
  health.sort((a, b) => a - b);
  const fmt = (n: number) => n.toFixed(1);
  // deno-lint-ignore no-console -- benchmark output
  console.log(
    `${concurrency} concurrent logins for ${fmt(elapsed)} s on ${navigator.hardwareConcurrency} cores: ` +
      `${fmt(logins / elapsed)} logins/s (${failures} failed); /health over ${health.length} samples: ` +
      `p50 ${fmt(percentile(health, 0.5))} ms, p99 ${fmt(percentile(health, 0.99))} ms, max ${
        fmt(health.at(-1)!)
      } ms`,
  );
} finally {
  server.kill("SIGTERM");
  await server.status;
  await Deno.remove(dir, { recursive: true });
}
