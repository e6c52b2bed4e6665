/**
 * Startup benchmark: start of `deno task start` (`deno run -A --v8-flags=... start.ts`, the task's flags, which runs the bundled
 * server `_build/server.js`) to the first /health 200, and idle RSS. START_ENTRY=main.ts measures a start from
 * source. Run `deno task build` first (the benchmark measures starts, not builds).
 * Run: deno run -A bench/startup.ts [runs]. Goal (issue #2): <= 150 ms and <= 60 MiB on the 2-core machine.
 */
const runs = Number(Deno.args[0] ?? 5);
const root = new URL("..", import.meta.url).pathname;
/** The --v8-flags of deno.json's start task, so the benchmark starts the server as `deno task start` does. */
const startTask: string = JSON.parse(Deno.readTextFileSync(`${root}deno.json`)).tasks.start;
const v8Flags = startTask.match(/--v8-flags=\S+/g) ?? [];

function freePort(): number {
  const l = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function rssMiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
  return kb / 1024;
}

/** CPU time (user + system, ms) the process has used: unlike wall time, barely moved by other load. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const cpu: number[] = [];
const times: number[] = [];
const rss: number[] = [];
for (let i = 0; i < runs; i++) {
  const dir = await Deno.makeTempDir({ prefix: "fb-bench-start-" });
  // First start writes settings and hashes the admin password; measure a normal (second) start like a restart.
  for (const phase of ["init", "measure"]) {
    const port = freePort();
    const t0 = performance.now();
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        ...v8Flags,
        Deno.env.get("START_ENTRY") ?? "start.ts",
        "--port",
        String(port),
        "--database",
        `${dir}/db.kv`,
        "--log-level",
        "warn",
      ],
      cwd: root,
      env: { FB_ADMIN_PASSWORD: "bench-password-123" },
      stdout: "null",
      stderr: "null",
    }).spawn();
    let elapsed = 0;
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        await res.body?.cancel();
        if (res.status === 200) {
          elapsed = performance.now() - t0;
          if (phase === "measure") cpu.push(await cpuMs(child.pid));
          break;
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    if (phase === "measure") {
      times.push(elapsed);
      await new Promise((r) => setTimeout(r, 1000));
      rss.push(await rssMiB(child.pid));
    }
    child.kill("SIGTERM");
    await child.status;
  }
  await Deno.remove(dir, { recursive: true });
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
// deno-lint-ignore no-console -- benchmark output
console.log(
  `startup to first /health 200: median ${median.toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${
    times.at(-1)!.toFixed(0)
  }), ` +
    `CPU to that point median ${cpu.sort((a, b) => a - b)[Math.floor(cpu.length / 2)]} ms, ` +
    `idle RSS median ${
      rss.sort((a, b) => a - b)[Math.floor(rss.length / 2)].toFixed(1)
    } MiB over ${runs} runs`,
);
