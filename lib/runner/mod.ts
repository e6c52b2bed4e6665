/**
 * The command runner's start-up: with `--enable-exec`, probe the sandbox once and build the ExecEnv that the
 * WebSocket runner and the event hooks share. Without a working sandbox the server refuses to start, unless the
 * admin explicitly chose `--exec-unconfined`.
 */
import type { Config } from "../../config.ts";
import type { ExecStatus } from "../types.ts";
import { type ExecEnv, OUTPUT_LIMITS } from "./run.ts";
import { type ProbeResult, probeSandbox } from "./sandbox.ts";
import { closeFromOnExec } from "../fs/floor.ts";

export { commandEnv, type ExecEnv, runCommand } from "./run.ts";
export type { RunResult } from "./run.ts";

/** `--enable-exec` was given but commands cannot be confined here (and `--exec-unconfined` was not). */
export class ExecUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExecUnavailableError";
  }
}

let probed: Promise<ProbeResult> | null = null;

/** The sandbox probe, run once per process. */
export function probeOnce(): Promise<ProbeResult> {
  return probed ??= probeSandbox();
}

/** The exec environment of a server, and what to warn about at every start. */
export interface ExecSetup {
  exec: ExecEnv | null;
  warnings: string[];
}

/** Builds the ExecEnv from the config (null when exec is off); throws ExecUnavailableError when it cannot be confined. */
export async function createExecEnv(
  config: Pick<
    Config,
    "enableExec" | "execUnconfined" | "execNetwork" | "execTimeout" | "execMaxProcesses" | "execMaxMemory"
  >,
  options: { probe?: () => Promise<ProbeResult> } = {},
): Promise<ExecSetup> {
  if (!config.enableExec) return { exec: null, warnings: [] };
  const probe = await (options.probe ?? probeOnce)();
  const warnings: string[] = [];
  const limits = {
    timeoutMs: config.execTimeout * 1000,
    maxProcesses: config.execMaxProcesses,
    maxMemory: config.execMaxMemory,
    ...OUTPUT_LIMITS,
  };
  // Also done before every spawn; here it tells whether it can be done at all.
  if (!closeFromOnExec()) {
    warnings.push(
      "descriptors the server inherited cannot be closed for commands (needs Linux, glibc and --allow-ffi)",
    );
  }
  if (!probe.ok) {
    if (!config.execUnconfined) {
      throw new ExecUnavailableError(
        `--enable-exec: ${probe.reason}; install bubblewrap, or accept unconfined commands with --exec-unconfined`,
      );
    }
    warnings.push(
      `commands run UNCONFINED (${probe.reason}): an allowed command can read and change every file the server can`,
    );
    return { exec: { sandbox: null, network: true, limits }, warnings };
  }
  if (probe.sandbox.processLimit === "none") {
    warnings.push(
      "commands have no process limit: run the server as a non-root user, or give it a writable pids cgroup",
    );
  }
  if (probe.sandbox.memoryLimit === "none") {
    warnings.push(
      "commands have no memory limit: install prlimit (util-linux), or give the server a memory cgroup",
    );
  }
  return { exec: { sandbox: probe.sandbox, network: config.execNetwork, limits }, warnings };
}

/** The read-only status shown to admins. */
export function execStatusOf(exec: ExecEnv | null | undefined): ExecStatus {
  if (!exec) {
    return { mode: "disabled", sandbox: "", processLimit: "none", memoryLimit: "none", network: false };
  }
  return {
    mode: exec.sandbox ? "confined" : "unconfined",
    sandbox: exec.sandbox?.version ?? "",
    processLimit: exec.sandbox?.processLimit ?? "none",
    memoryLimit: exec.sandbox?.memoryLimit ?? "none",
    network: exec.network,
  };
}
