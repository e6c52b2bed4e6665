// This module is browser-compatible.
/**
 * The command runner's client side, the one call of the API package that is a WebSocket (`/api/command<folder>`):
 * sends the command line once the socket is open, hands every text message to the terminal as one line, and
 * reports how the run ended. The session travels in the `auth` cookie, as for any same-origin request; stopping
 * closes the socket.
 */
import { COMMAND_REFUSALS } from "../../lib/types.ts";
import { encodePath } from "../../lib/url_path.ts";

/** How a run ended. */
export interface RunEnd {
  /** "done": the server closed; "stopped": the user interrupted; "failed": no connection could be made. */
  how: "done" | "stopped" | "failed";
  /** The process's exit status when the server reported one in its close frame. */
  status: number | null;
  /** The close code (0 when the socket never closed by itself). */
  code: number;
  /** The close reason ("" when the socket never closed by itself). */
  reason?: string;
}

/** Callbacks of one run. */
export interface RunHandlers {
  /** Terminal-ready text (CR LF line ends) of one output message. */
  onOutput(text: string): void;
  onEnd(end: RunEnd): void;
}

/** A running command. */
export interface RunningCommand {
  /** Interrupts the command: the socket is closed (the server then ends the process). */
  stop(): void;
}

/** The WebSocket constructor (tests pass a fake). */
export type SocketFactory = (url: string) => WebSocket;

/** The folder a command runs in: the path itself for a folder, the parent of a file. Always ends with "/". */
export function commandFolder(path: string): string {
  const folder = path.endsWith("/") ? path : path.slice(0, path.lastIndexOf("/") + 1);
  return folder.startsWith("/") ? folder : `/${folder}`;
}

/** The ws:/wss: URL of the command runner for a folder of the files area. */
export function commandUrl(
  location: { protocol: string; host: string },
  base: string,
  folder: string,
): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const path = encodePath(commandFolder(folder));
  return `${scheme}//${location.host}${base}/api/command${path}`;
}

/** One output message as terminal text: a line of its own, every line end as CR LF (xterm needs the CR). */
export function toTerminal(message: string): string {
  return message.replace(/\r?\n/g, "\r\n") + "\r\n";
}

/** The exit status carried by the server's close frame (code 1000, reason `exit <status>`), or null. */
export function exitStatusOf(code: number, reason: string): number | null {
  const m = /^exit (-?\d{1,4})$/.exec(reason.trim());
  return code === 1000 && m ? Number(m[1]) : null;
}

/** Close codes of our command runner that the output alone does not explain (refusals come with a text). */
const END_NOTES: Record<number, string> = {
  4408: "shell.timeout",
  4413: "shell.outputLimit",
  1011: "shell.serverError",
};

/** Refusals of a policy (code 4403), by close reason: why none of the user's commands run. */
const REFUSAL_NOTES: Record<string, string> = {
  [COMMAND_REFUSALS.rules]: "shell.refusedRules",
  [COMMAND_REFUSALS.hidden]: "shell.refusedHidden",
  [COMMAND_REFUSALS.quota]: "shell.refusedQuota",
};

/** What the terminal adds after a run: a translation key and its variables, or null when nothing is to say. */
export function endNote(end: RunEnd): { key: string; vars?: Record<string, number> } | null {
  if (end.how === "failed") return { key: "shell.connectionFailed" };
  if (end.how === "stopped") return null;
  if (end.status) return { key: "shell.exitStatus", vars: { status: end.status } };
  if (end.code === 4403 && end.reason && REFUSAL_NOTES[end.reason]) return { key: REFUSAL_NOTES[end.reason] };
  const key = END_NOTES[end.code];
  return key ? { key } : null;
}

/** Runs one command line in a folder; the handlers see its output and its end (exactly once). */
export function runCommand(
  url: string,
  line: string,
  handlers: RunHandlers,
  open: SocketFactory = (u) => new WebSocket(u),
): RunningCommand {
  let ended = false;
  let opened = false;
  const finish = (end: RunEnd) => {
    if (ended) return;
    ended = true;
    handlers.onEnd(end);
  };
  let socket: WebSocket;
  try {
    socket = open(url);
  } catch {
    // An invalid URL throws synchronously; report it like a refused connection, after the caller got its handle.
    queueMicrotask(() => finish({ how: "failed", status: null, code: 0 }));
    return { stop: () => finish({ how: "stopped", status: null, code: 0 }) };
  }
  socket.onopen = () => {
    opened = true;
    socket.send(line);
  };
  socket.onmessage = (e) => {
    if (!ended && typeof e.data === "string") handlers.onOutput(toTerminal(e.data));
  };
  socket.onclose = (e) => {
    finish({
      how: opened ? "done" : "failed",
      status: opened ? exitStatusOf(e.code, e.reason) : null,
      code: e.code,
      reason: e.reason,
    });
  };
  return {
    stop() {
      if (ended) return;
      finish({ how: "stopped", status: null, code: 0 });
      socket.close();
    },
  };
}
