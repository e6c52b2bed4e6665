/**
 * One WebSocket command session: the first non-blank text message is the command line; it is vetted (exec on,
 * `execute` permission, no deny rules, no hidden dotfiles, no quota, first word in the user's commands), run in
 * the folder of the vpath (through the gate) and its output sent line by line. The socket is then closed with a
 * code that tells how the command ended (see {@link CLOSE}); a refusal's reason names a policy (see
 * {@link REFUSED}). The scope's usage is recounted after every command.
 */
import { ForbiddenError, HttpError, NotFoundError } from "../errors.ts";
import { type GateContext, resolveScoped, scopeDirOf, type ScopedPath } from "../fs/gate.ts";
import { log } from "../log.ts";
import { quotaOf, type RecountDeps, recountUsage } from "../quota.ts";
import { COMMAND_REFUSALS, type Settings, type StoredUser } from "../types.ts";
import { commandEnv, type ExecEnv, runCommand, type RunResult } from "./run.ts";
import { splitWords, WordsError } from "./words.ts";

/** Close codes of the runner: 1000 with reason `exit N` when the command ran, 44xx when it was refused or stopped. */
export const CLOSE = {
  /** The command ran and exited; the reason is `exit <status>`. */
  exit: 1000,
  /** The command line cannot be split, or holds no command. */
  badCommand: 4400,
  /** Exec is off, the permission is missing, rules restrict the scope, or the first word is not allowed. */
  notAllowed: 4403,
  /** The folder of the vpath does not exist. */
  notFound: 4404,
  /** No command line arrived in time, or the command ran past `--exec-timeout` and was killed. */
  timeout: 4408,
  /** The command printed more than the output limit and was killed. */
  outputLimit: 4413,
  /** The user already runs the most commands at once. */
  busy: 4429,
  /** Something failed on the server. */
  error: 1011,
} as const;

/**
 * Close reasons (with code 4403) of the refusals a policy explains; the client shows why. Commands see the whole
 * scope, so what the path gate hides or counts cannot hold inside it: users with deny rules, with hidden dotfiles
 * or with a storage quota (a command's writes could not be held against it) do not run commands.
 */
export const REFUSED = COMMAND_REFUSALS;

/** Commands one user may run at the same time. */
export const MAX_RUNNING_PER_USER = 4;
/** How long the server waits for the command line after the socket opened. */
const FIRST_MESSAGE_MS = 30_000;

/** The socket operations a session needs (the route adapts the WebSocket to this). */
export interface CommandSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** Who runs what where. */
export interface CommandSessionOptions {
  /** The exec environment; null or absent when command execution is off. */
  exec: ExecEnv | null | undefined;
  user: StoredUser;
  settings: Settings;
  gate: GateContext;
  /** The vpath of the folder to run in (a file means its folder). */
  vpath: string;
  /** How long to wait for the command line (default 30 s). */
  firstMessageMs?: number;
  /** Where the command's writes are counted: the scope's usage is recounted after it. */
  usage?: RecountDeps;
}

/** Events the route forwards to the session. */
export interface CommandSession {
  message(data: unknown): void;
  /** The client went away (or the socket closed): kill whatever runs. */
  closed(): void;
}

const running = new WeakMap<ExecEnv, Map<number, number>>();

function acquire(exec: ExecEnv, userId: number): boolean {
  let counts = running.get(exec);
  if (!counts) running.set(exec, counts = new Map());
  const n = counts.get(userId) ?? 0;
  if (n >= MAX_RUNNING_PER_USER) return false;
  counts.set(userId, n + 1);
  return true;
}

function release(exec: ExecEnv, userId: number): void {
  const counts = running.get(exec);
  const n = (counts?.get(userId) ?? 1) - 1;
  if (n <= 0) counts?.delete(userId);
  else counts?.set(userId, n);
}

/** True when a global or user rule denies something: commands see the whole scope, so rules cannot hold there. */
function hasDenyRules(settings: Settings, user: StoredUser): boolean {
  return [...settings.rules, ...(user.rules ?? [])].some((r) => !r.allow);
}

/** The policy that keeps this user from running commands, or null. */
function refusalOf(settings: Settings, user: StoredUser): keyof typeof REFUSED | null {
  if (hasDenyRules(settings, user)) return "rules";
  if (user.hideDotfiles) return "hidden";
  if (quotaOf(user) > 0) return "quota";
  return null;
}

/** The folder to run in: the vpath through the gate, or the folder of a file (checked by the gate as well). */
async function commandDir(gate: GateContext, vpath: string): Promise<ScopedPath> {
  let p = await resolveScoped(gate, vpath, "execute");
  if (p.stat !== null && !p.stat.isDirectory) {
    p = await resolveScoped(gate, p.vpath.slice(0, p.vpath.lastIndexOf("/")) || "/", "execute");
  }
  if (p.stat === null || !p.stat.isDirectory) throw new NotFoundError();
  return p;
}

function closeOf(r: RunResult): [number, string] {
  if (r.stop === "timeout") return [CLOSE.timeout, "timeout"];
  if (r.stop === "output") return [CLOSE.outputLimit, "output limit"];
  return [CLOSE.exit, `exit ${r.code}`];
}

/** Starts a session on an open socket. */
export function openCommandSession(options: CommandSessionOptions, socket: CommandSocket): CommandSession {
  const abort = new AbortController();
  let started = false;
  const idle = setTimeout(() => finish(CLOSE.timeout, "timeout"), options.firstMessageMs ?? FIRST_MESSAGE_MS);
  const finish = (code: number, reason: string, text?: string) => {
    clearTimeout(idle);
    if (text !== undefined) socket.send(text);
    socket.close(code, reason);
  };
  const refuse = () => finish(CLOSE.notAllowed, "not allowed", "Command not allowed.");

  async function run(line: string): Promise<void> {
    clearTimeout(idle);
    const { exec, user, settings } = options;
    if (!exec || !user.perm.execute) return refuse();
    const policy = refusalOf(settings, user);
    if (policy) return finish(CLOSE.notAllowed, REFUSED[policy], "Command not allowed.");
    let words: string[];
    try {
      words = splitWords(line);
    } catch (err) {
      if (!(err instanceof WordsError)) throw err;
      return finish(CLOSE.badCommand, "bad command", `error parsing command: ${err.message}`);
    }
    if (words.length === 0) {
      return finish(CLOSE.badCommand, "bad command", `no command contained in '${line}'`);
    }
    // Vet the first word after splitting: quotes or backslashes cannot smuggle in another program.
    if (!(user.commands ?? []).includes(words[0])) return refuse();
    let dir: ScopedPath;
    try {
      dir = await commandDir(options.gate, options.vpath);
    } catch (err) {
      if (err instanceof ForbiddenError) return refuse();
      if (err instanceof HttpError && err.status === 404) {
        return finish(CLOSE.notFound, "not found", `no such directory: '${options.vpath}'`);
      }
      throw err;
    }
    if (!acquire(exec, user.id)) return finish(CLOSE.busy, "busy", "Too many commands running.");
    try {
      // With a shell the admin chose to let the whole line through: only the first word was vetted.
      const argv = settings.shell.length > 0 ? [...settings.shell, line] : words;
      const scope = dir.confinement.rootReal;
      log.info(`exec: user "${user.username}" runs ${JSON.stringify(line)} in "${dir.vpath}"`);
      const result = await runCommand(exec, {
        argv,
        scope,
        anchor: dir.confinement.anchor,
        cwd: dir.real,
        env: commandEnv(scope),
        signal: abort.signal,
        onLine: (l) => socket.send(l),
      }).finally(() => options.usage && recountUsage(options.usage, scopeDirOf(options.gate)));
      if (result.stop !== "aborted") finish(...closeOf(result));
    } finally {
      release(exec, user.id);
    }
  }

  return {
    message(data) {
      if (started || typeof data !== "string") return;
      const line = data.trim();
      if (line === "") return;
      started = true;
      run(line).catch((err) => {
        log.error(`exec: command of user "${options.user.username}" failed`, err);
        finish(CLOSE.error, "internal error");
      });
    },
    closed() {
      clearTimeout(idle);
      abort.abort();
    },
  };
}
