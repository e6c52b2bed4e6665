/** Helpers for tests that run the real commands (`deno task start`, `deno task users`) as subprocesses. */

const ROOT = new URL("../..", import.meta.url).pathname;
/**
 * Plain output whatever the caller's terminal: Deno colours its own lines (the "Task …" echo) when it decides
 * the output can take colours, which breaks the matching below when the tests run from a terminal or `npx`.
 */
const PLAIN = { NO_COLOR: "1" };

/** What a finished command printed, and its exit code. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stderr without `deno task`'s own "Task …" echo line. */
  errorLines: string[];
}

/** Runs `deno task <task> ...args` to its end (killed after `timeoutMs`, e.g. a server that should not have started). */
export async function runTask(
  task: string,
  args: string[],
  options: { env?: Record<string, string>; stdin?: string; timeoutMs?: number } = {},
): Promise<CommandResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", task, ...args],
    cwd: ROOT,
    env: { ...PLAIN, ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const timer = setTimeout(() => child.kill("SIGTERM"), options.timeoutMs ?? 60_000);
  const out = await child.output().finally(() => clearTimeout(timer));
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  const errorLines = stderr.split("\n").filter((l) => l !== "" && !l.startsWith("Task "));
  return { code: out.code, stdout, stderr, errorLines };
}

/** A free TCP port on 127.0.0.1 (closed again, so a server can take it). */
export function freePort(): number {
  const l = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** A running `deno task start`. */
export interface ServerProcess {
  port: number;
  /** Everything printed so far (stdout and stderr). */
  log: () => string;
  stop: () => Promise<void>;
  /** SIGTERM, then waits up to `ms` for the exit: false (and SIGKILL) when it did not end by then. */
  terminate: (ms: number) => Promise<boolean>;
}

/** Options of {@link startServer}. */
export interface StartOptions {
  /** Run `deno run -A main.ts` (from source, as `deno task dev` does) instead of `deno task start`. */
  source?: boolean;
}

/**
 * Starts `deno task start` and waits until it serves: for the "listening on" line with `--port 0`, or for a 200 from
 * /health on a given port (when the log level hides that line).
 */
export async function startServer(
  args: string[],
  env: Record<string, string>,
  options: StartOptions = {},
): Promise<ServerProcess> {
  const fixed = args.includes("--port");
  const command = options.source ? ["run", "-A", "main.ts"] : ["task", "start"];
  const child = new Deno.Command(Deno.execPath(), {
    args: [...command, ...(fixed ? [] : ["--port", "0"]), ...args],
    cwd: ROOT,
    env: { ...PLAIN, ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const decoder = new TextDecoder();
  let log = "";
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const errDone = child.stderr.pipeTo(new WritableStream({ write: (c) => void (log += decoder.decode(c)) }));
  const outDone = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      log += value;
    }
  })();
  let port = fixed ? Number(args[args.indexOf("--port") + 1]) : 0;
  for (let i = 0; i < 3000; i++) {
    if (!fixed) port = Number(log.match(/listening on http:\/\/[^:]+:(\d+)\//)?.[1] ?? 0);
    else if (await healthy(port)) break;
    if (!fixed && port) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const drain = async () => {
    await reader.cancel().catch(() => {});
    await outDone.catch(() => {});
    await errDone.catch(() => {});
  };
  return {
    port,
    log: () => log,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await drain();
    },
    async terminate(ms) {
      child.kill("SIGTERM");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const ended = await Promise.race([
        child.status.then(() => true),
        new Promise<boolean>((r) => timer = setTimeout(() => r(false), ms)),
      ]);
      clearTimeout(timer);
      if (!ended) {
        child.kill("SIGKILL");
        await child.status;
      }
      await drain();
      return ended;
    },
  };
}

async function healthy(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false; // not listening yet
  }
}

/** Logs in over HTTP; returns the status and the token (or body). */
export async function httpLogin(port: number, username: string, password: string) {
  const res = await fetch(`http://127.0.0.1:${port}/api/login`, {
    method: "POST",
    body: JSON.stringify({ username, password }),
  });
  return { status: res.status, text: await res.text() };
}
