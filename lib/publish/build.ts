/**
 * The build command run after a publish. It is a seam: `AppDeps.buildRunner` takes any {@link BuildRunner}
 * (the confined command runner of the exec feature); without one, {@link commandBuildRunner} spawns the argv
 * directly. Either way it runs only when command execution is enabled (`--enable-exec`).
 */
import type { StoredUser } from "../types.ts";

/** Options of a build run. */
export interface BuildRunOptions {
  /** Real path of the site folder. */
  cwd: string;
  /** The user who scheduled the publish (the runner may apply their limits). */
  user: StoredUser;
}

/** The result of a build: exit code and the combined stdout/stderr. */
export interface BuildResult {
  code: number;
  output: string;
}

/** Runs a build command given as argv words. */
export type BuildRunner = (argv: string[], options: BuildRunOptions) => Promise<BuildResult>;

/** A build that runs longer is killed. */
export const BUILD_TIMEOUT_MS = 10 * 60_000;
/** Output kept in memory while a build runs (the log keeps a smaller tail). */
const MAX_OUTPUT_BYTES = 1024 * 1024;

async function collect(stream: ReadableStream<Uint8Array>, sink: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) sink(decoder.decode(chunk, { stream: true }));
  sink(decoder.decode());
}

/**
 * The default runner: spawns argv[0] in the site folder with a minimal environment (the server's variables, which
 * may hold secrets, are not passed on), stdout and stderr merged as they arrive, killed after BUILD_TIMEOUT_MS.
 */
export async function commandBuildRunner(argv: string[], options: BuildRunOptions): Promise<BuildResult> {
  const [cmd, ...args] = argv;
  const parts: string[] = [];
  let size = 0;
  const sink = (text: string) => {
    if (size > MAX_OUTPUT_BYTES) return;
    size += text.length;
    parts.push(text);
  };
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(cmd, {
      args,
      cwd: options.cwd,
      clearEnv: true,
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: options.cwd, LANG: "C.UTF-8" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(BUILD_TIMEOUT_MS),
    }).spawn();
  } catch (err) {
    // A missing program is the admin's configuration error: report it in the log, not as a server error.
    return { code: 127, output: `Cannot run "${cmd}": ${(err as Error).message}\n` };
  }
  await Promise.all([collect(child.stdout, sink), collect(child.stderr, sink)]);
  const status = await child.status;
  return { code: status.code, output: parts.join("") };
}
