/** The dev loop: rebuild the manifest and bundles on every change and restart the server process. */
import { build } from "./build.ts";

/** Options of devLoop. */
export interface DevOptions {
  /** The server entry, e.g. "main.ts". */
  entry: string;
  /** Arguments passed on to the server. */
  args?: string[];
  /** Paths to watch. */
  watch: string[];
}

const DEBOUNCE_MS = 150;

function spawn(options: DevOptions): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", options.entry, ...(options.args ?? [])],
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
}

async function stop(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch {
    // Already exited (e.g. crashed on a syntax error); nothing to stop.
  }
  await child.status;
}

/** Builds, starts the server, and on each change rebuilds and restarts it (until interrupted). */
export async function devLoop(options: DevOptions): Promise<void> {
  await build();
  let child = spawn(options);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watcher = Deno.watchFs(options.watch, { recursive: true });
  for await (const event of watcher) {
    // Generated files would retrigger the loop.
    if (event.paths.every((p) => p.endsWith("routes.gen.ts") || p.includes("/_build/"))) continue;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        await build();
      } catch (err) {
        // A broken island keeps the old server running; the next save retries.
        // deno-lint-ignore no-console -- dev loop output
        console.error((err as Error).message);
        return;
      }
      await stop(child);
      child = spawn(options);
    }, DEBOUNCE_MS);
  }
}
