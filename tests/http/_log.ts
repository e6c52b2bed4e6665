/** Log capture for HTTP tests: client input must never produce an ERROR line. */
import { type LogLevel, setLogSink } from "../../lib/log.ts";

/** Lines logged while a capture is active. */
export interface LogCapture {
  lines: { level: LogLevel; line: string; extra?: unknown }[];
  /** The ERROR lines, with the message of their error (if any). */
  errors(): string[];
  /** Restores the previous sink. */
  stop(): void;
}

/** Starts capturing log lines (nothing reaches the console until `stop()`). */
export function captureLog(): LogCapture {
  const lines: LogCapture["lines"] = [];
  const previous = setLogSink((level, line, extra) => lines.push({ level, line, extra }));
  return {
    lines,
    errors: () =>
      lines.filter((l) => l.level === "error").map((l) =>
        l.extra instanceof Error ? `${l.line}: ${l.extra.message}` : l.line
      ),
    stop: () => void setLogSink(previous),
  };
}
