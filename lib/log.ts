/** The server's logger: the only module allowed to write to the console. */

/** Log levels in increasing severity. */
export type LogLevel = "debug" | "info" | "warn" | "error";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let threshold: number = ORDER.info;

/** Receives every printed log line instead of the console (tests capture output with it). */
export type LogSink = (level: LogLevel, line: string, extra?: unknown) => void;

let sink: LogSink | null = null;

/** Routes log lines to `next` instead of the console (null restores the console); returns the previous sink. */
export function setLogSink(next: LogSink | null): LogSink | null {
  const previous = sink;
  sink = next;
  return previous;
}

/** Sets the minimum level that is printed. */
export function setLogLevel(level: LogLevel): void {
  threshold = ORDER[level] ?? ORDER.info;
}

/** True when lines of `level` are printed (to skip building a line nobody sees). */
export function isLogged(level: LogLevel): boolean {
  return ORDER[level] >= threshold;
}

const encoder = new TextEncoder();

/** Plain stdout lines of this turn of the event loop, written together at its end (see {@link emit}). */
let pending: string[] = [];
let flushQueued = false;

/** Writes every pending stdout line now, in order. */
export function flushLog(): void {
  flushQueued = false;
  if (pending.length === 0) return;
  const bytes = encoder.encode(pending.join("\n") + "\n");
  pending = [];
  for (let off = 0; off < bytes.length;) off += Deno.stdout.writeSync(bytes.subarray(off));
}

// Deno.exit() dispatches "unload" but runs no further microtasks: lines of the last turn still get out.
globalThis.addEventListener?.("unload", flushLog);

function emit(level: LogLevel, message: string, extra?: unknown): void {
  if (ORDER[level] < threshold) return;
  const line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}`;
  if (sink) return sink(level, line, extra);
  if ((level === "info" || level === "debug") && extra === undefined) {
    // One write for the plain lines of a turn instead of one each (a busy server logs an audit line per
    // download); flushed before any other console output, so the order holds.
    pending.push(line);
    if (!flushQueued) {
      flushQueued = true;
      queueMicrotask(flushLog);
    }
    return;
  }
  flushLog();
  // deno-lint-ignore no-console -- this module is the one sanctioned console writer
  const out = level === "error" || level === "warn" ? console.error : console.log;
  if (extra === undefined) out(line);
  else out(line, extra);
}

/** Structured-enough logging helpers. */
export const log = {
  debug: (m: string, e?: unknown) => emit("debug", m, e),
  info: (m: string, e?: unknown) => emit("info", m, e),
  warn: (m: string, e?: unknown) => emit("warn", m, e),
  error: (m: string, e?: unknown) => emit("error", m, e),
};
