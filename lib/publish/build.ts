/**
 * The build command run after a publish, confined like every command (docs/publishing.md#the-build): the site
 * folder is its only writable tree, there is no network unless `--publish-network`, the memory and process limits
 * of commands apply, the whole process tree dies when the build ends or runs past BUILD_TIMEOUT_MS, and one build
 * runs at a time. `AppDeps.buildRunner` may replace it (tests); without command execution nothing is built.
 */
import type { ExecEnv } from "../runner/run.ts";
import { commandEnv, runCommand } from "../runner/run.ts";
import { Semaphore } from "../semaphore.ts";
import type { StoredUser } from "../types.ts";

/** Options of a build run. */
export interface BuildRunOptions {
  /** Real path of the site folder. */
  cwd: string;
  /** Real path of the files root: the sandbox mounts the site folder through the disk floor beneath it. */
  anchor?: string;
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
/** Output kept of a build (the log keeps a smaller tail). */
const MAX_OUTPUT_BYTES = 1024 * 1024;

const queues = new WeakMap<ExecEnv, Semaphore>();

/**
 * The runner of a server with command execution: the argv runs confined in the site folder (with the sandbox of
 * `exec`, or unconfined when the admin chose `--exec-unconfined`), after any build still running. Its output is
 * stdout, then stderr, cut at 1 MiB.
 */
export function execBuildRunner(exec: ExecEnv, options: { network: boolean }): BuildRunner {
  let queue = queues.get(exec);
  if (!queue) queues.set(exec, queue = new Semaphore(1));
  const one = queue;
  // Unconfined means no namespaces at all: the network cannot be taken away there.
  const env: ExecEnv = {
    ...exec,
    network: exec.sandbox ? options.network : true,
    limits: { ...exec.limits, timeoutMs: BUILD_TIMEOUT_MS },
  };
  return (argv, { cwd, anchor }) =>
    one.run(async () => {
      const parts: string[] = [];
      let size = 0;
      const r = await runCommand(env, {
        argv,
        scope: cwd,
        anchor,
        cwd,
        env: commandEnv(cwd),
        onLine: (line) => {
          if (size > MAX_OUTPUT_BYTES) return;
          size += line.length + 1;
          parts.push(line + "\n");
        },
      });
      if (r.stop === "timeout") {
        parts.push(`The build ran longer than ${BUILD_TIMEOUT_MS / 60_000} minutes.\n`);
      }
      if (r.stop === "output") parts.push("The build printed more than the output limit.\n");
      return { code: r.stop === "exit" ? r.code : r.code || 1, output: parts.join("") };
    });
}
