/**
 * Runs one command (confined by the sandbox, or unconfined when the admin chose so) with the limits of every
 * command: no stdin, a small fixed environment, a wall-clock limit, capped output, and the whole process tree
 * killed on timeout, on overflow, or when the caller goes away. Output comes as lines: all of stdout, then stderr.
 */
import { log } from "../log.ts";
import { closeFromOnExec, inheritOnce, type Pin, pinObject } from "../fs/floor.ts";
import { type CommandGroup, createCommandGroup } from "./cgroup.ts";
import { type Sandbox, sandboxArgv } from "./sandbox.ts";

/** Limits that apply to every command. */
export interface ExecLimits {
  timeoutMs: number;
  maxProcesses: number;
  /** Bytes of memory of one command (a memory cgroup for all its processes, RLIMIT_DATA for each). */
  maxMemory: number;
  /** Output lines (stdout + stderr) before the command is stopped. */
  maxLines: number;
  /** Output bytes (stdout + stderr) before the command is stopped. */
  maxBytes: number;
}

/** How this server runs commands; absent (or null) in AppDeps when command execution is off. */
export interface ExecEnv {
  /** null: unconfined (`--exec-unconfined` without a working sandbox). */
  sandbox: Sandbox | null;
  network: boolean;
  limits: ExecLimits;
}

/** Default caps on the output of one command. */
export const OUTPUT_LIMITS = { maxLines: 10_000, maxBytes: 4 * 1024 * 1024 } as const;
/** Longer lines are sent in pieces of this many characters. */
export const MAX_LINE = 64 * 1024;
/** After the command ended (or was killed), reading stops once the pipes stay silent this long... */
const DRAIN_IDLE_MS = 500;
/** ...or at the latest this long after the end (a detached descendant may hold them open for ever). */
const DRAIN_MAX_MS = 5000;
/** PATH inside and outside the sandbox. */
export const EXEC_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** The environment of a command: PATH, HOME (the scope), LANG and `extra` (hook variables), nothing else. */
export function commandEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: EXEC_PATH, HOME: home, LANG: "C.UTF-8", ...extra };
}

/** One command to run. */
export interface RunOptions {
  /** Program and arguments (already vetted). */
  argv: string[];
  /** Real path of the user's scope (the writable tree of the sandbox). */
  scope: string;
  /**
   * The files root the scope lies beneath (the disk floor's anchor): the sandbox then mounts the scope through a
   * descriptor the floor opened without following links. "" or absent: mounted by path.
   */
  anchor?: string;
  /** Real path of the working directory. */
  cwd: string;
  env: Record<string, string>;
  /** Aborting kills the command (the client went away). */
  signal?: AbortSignal;
  /** Receives each output line as it comes (stdout first, then stderr); without it lines are collected. */
  onLine?: (line: string) => void;
}

/** Why a command ended. */
export type RunStop = "exit" | "timeout" | "output" | "aborted";

/** The outcome of {@link runCommand}. */
export interface RunResult {
  /** Exit status (128 + signal number when killed by a signal). */
  code: number;
  stop: RunStop;
  /** Collected output when no `onLine` was given (capped like streamed output). */
  lines: string[];
}

/** A line as messages of at most MAX_LINE characters (an empty line stays one empty message). */
function* pieces(line: string) {
  let i = 0;
  do {
    yield line.slice(i, i + MAX_LINE);
    i += MAX_LINE;
  } while (i < line.length);
}

async function* linesOf(reader: ReadableStreamDefaultReader<Uint8Array>, count: (bytes: number) => boolean) {
  const decoder = new TextDecoder();
  let rest = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!count(value.byteLength)) return;
    rest += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = rest.indexOf("\n")) >= 0) {
      yield* pieces(rest.slice(0, nl).replace(/\r$/, ""));
      rest = rest.slice(nl + 1);
    }
    while (rest.length > MAX_LINE) {
      yield rest.slice(0, MAX_LINE);
      rest = rest.slice(MAX_LINE);
    }
  }
  rest += decoder.decode();
  if (rest !== "") yield* pieces(rest.replace(/\r$/, ""));
}

function spawnArgv(
  exec: ExecEnv,
  options: RunOptions,
  group: CommandGroup | null,
  scopePin: Pin | null,
): string[] {
  if (!exec.sandbox) return options.argv;
  return sandboxArgv(exec.sandbox, {
    scope: options.scope,
    scopeFd: scopePin?.fd,
    cwd: options.cwd,
    argv: options.argv,
    network: exec.network,
    maxProcesses: exec.limits.maxProcesses,
    maxMemory: exec.limits.maxMemory,
    cgroups: group?.dirs,
  });
}

/** The command's cgroups: pids in "cgroup" process-limit mode, memory wherever a memory cgroup can be made. */
async function commandGroupOf(sandbox: Sandbox, limits: ExecLimits): Promise<CommandGroup | null> {
  const maxPids = sandbox.processLimit === "cgroup" ? limits.maxProcesses : undefined;
  const maxMemory = sandbox.memoryLimit === "cgroup" ? limits.maxMemory : undefined;
  if (!maxPids && !maxMemory) return null;
  return await createCommandGroup({ parents: sandbox.cgroups, maxPids, maxMemory });
}

/** Runs a command to its end (or until a limit or the caller stops it) and reports how it ended. */
export async function runCommand(exec: ExecEnv, options: RunOptions): Promise<RunResult> {
  const lines: string[] = [];
  const emit = options.onLine ?? ((l: string) => void lines.push(l));
  const sandbox = exec.sandbox;
  const group = sandbox ? await commandGroupOf(sandbox, exec.limits) : null;
  let child: Deno.ChildProcess;
  // The scope folder pinned by the disk floor (403 when it leads through a link now), inherited by bwrap only.
  let scopePin: Pin | null = null;
  let spawning = false;
  try {
    if (sandbox && options.anchor) scopePin = pinObject(options.anchor, options.scope);
    const argv = spawnArgv(exec, options, group, scopePin);
    spawning = true;
    // Descriptors the server inherited or a native library opened without O_CLOEXEC must not reach the command
    // (an open database or listening socket would cross every mount of the sandbox).
    closeFromOnExec();
    if (scopePin) inheritOnce(scopePin);
    child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      // Unconfined commands get the working directory from us; bwrap sets it inside the sandbox.
      cwd: sandbox ? undefined : options.cwd,
      clearEnv: true,
      env: options.env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      // Own session and process group: the whole tree can be killed at once.
      detached: true,
    }).spawn();
    // bwrap has its own copy of the descriptor now (and closes it once mounted).
    scopePin?.close();
  } catch (err) {
    await group?.remove();
    scopePin?.close();
    if (err instanceof Deno.errors.NotFound && spawning) {
      emit(`${options.argv[0]}: command not found`);
      return { code: 127, stop: "exit", lines };
    }
    throw err;
  }
  let stop: RunStop = "exit";
  const out = child.stdout.getReader();
  const err = child.stderr.getReader();
  let ended = false;
  const killTree = () => {
    if (ended && sandbox) return;
    try {
      // Killing bwrap (the group leader) makes --die-with-parent tear down the whole PID namespace.
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* the group is gone */ }
  };
  // A descendant that left the group may hold the pipes (unconfined): stop reading once they fall silent. Output
  // still flowing when the command exits (a loaded machine) keeps being read, up to DRAIN_MAX_MS.
  let drain: ReturnType<typeof setTimeout> | undefined;
  let drainStart = 0;
  const armDrain = () => {
    clearTimeout(drain);
    const left = Math.min(DRAIN_IDLE_MS, drainStart + DRAIN_MAX_MS - Date.now());
    drain = setTimeout(() => {
      out.cancel().catch(() => {});
      err.cancel().catch(() => {});
    }, Math.max(0, left));
  };
  const stopReading = () => {
    if (drainStart) return;
    drainStart = Date.now();
    armDrain();
  };
  const kill = (why: RunStop) => {
    if (stop === "exit") stop = why;
    killTree();
    stopReading();
  };
  const timer = setTimeout(() => kill("timeout"), exec.limits.timeoutMs);
  const onAbort = () => kill("aborted");
  options.signal?.addEventListener("abort", onAbort);
  if (options.signal?.aborted) kill("aborted");
  const exited = child.status.then((s) => {
    ended = true;
    // Nothing an unconfined command started may outlive it (a sandbox ends with its PID namespace).
    if (!sandbox) killTree();
    stopReading();
    return s;
  });

  let bytes = 0, count = 0;
  const budget = (n: number) => {
    if (drainStart) armDrain();
    bytes += n;
    if (bytes <= exec.limits.maxBytes) return true;
    kill("output");
    return false;
  };
  const take = (line: string, sink: (l: string) => void) => {
    if (stop !== "exit") return false;
    if (++count > exec.limits.maxLines) {
      kill("output");
      return false;
    }
    sink(line);
    return true;
  };
  // Read both pipes at once (a full stderr pipe must not block the command), send stderr after stdout.
  const stderrLines: string[] = [];
  const readErr = (async () => {
    for await (const line of linesOf(err, budget)) if (!take(line, (l) => stderrLines.push(l))) break;
  })();
  for await (const line of linesOf(out, budget)) if (!take(line, emit)) break;
  await readErr;
  if (stop === "exit" || stop === "output") { for (const l of stderrLines) emit(l); }
  const status = await exited;
  clearTimeout(timer);
  clearTimeout(drain);
  out.cancel().catch(() => {});
  err.cancel().catch(() => {});
  options.signal?.removeEventListener("abort", onAbort);
  // Awaited: a process that exits right after its last command must not leave the group behind.
  if (group) await group.remove().catch((e) => log.debug(`cannot remove cgroups ${group.dirs}`, e));
  const code = status.signal ? 128 + signalNumber(status.signal) : status.code;
  return { code, stop, lines };
}

const SIGNALS: Partial<Record<Deno.Signal, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGABRT: 6,
  SIGKILL: 9,
  SIGSEGV: 11,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
};

function signalNumber(signal: Deno.Signal): number {
  return SIGNALS[signal] ?? 0;
}
