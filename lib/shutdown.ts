/**
 * Stopping on SIGINT and SIGTERM within a bounded time. A graceful stop waits for the answers in flight, and
 * one can wait for ever (a client that stopped reading a download, a stuck file operation): the answers get
 * {@link SHUTDOWN_GRACE_MS}, the whole stop {@link SHUTDOWN_DEADLINE_MS}, and a second signal exits at once.
 */
import { log } from "./log.ts";

/** How long answers in flight may take once a stop began. */
export const SHUTDOWN_GRACE_MS = 2000;
/** After this the process exits whatever is still running (exit code 1). */
export const SHUTDOWN_DEADLINE_MS = 4000;

/** Waits for `work`, but at most `ms`: true when it ended in time (its failure is logged, not thrown). */
export async function withinMs(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([
      work.then(() => true, (err) => {
        log.warn("shutdown: a step failed", err);
        return true;
      }),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Options of {@link exitOnSignals}. */
export interface ExitOnSignalsOptions {
  /** Default {@link SHUTDOWN_DEADLINE_MS}. */
  deadlineMs?: number;
  /** Default `Deno.exit`. */
  exit?: (code: number) => void;
  /** Default SIGINT and SIGTERM. */
  signals?: Deno.Signal[];
}

/**
 * On the first signal runs `stop` and exits 0 when it ends, or 1 when it has not ended after the deadline; a
 * second signal exits 1 at once. Returns a function that removes the listeners (for tests).
 */
export function exitOnSignals(stop: () => Promise<void>, options: ExitOnSignalsOptions = {}): () => void {
  const exit = options.exit ?? ((code: number) => Deno.exit(code));
  const signals = options.signals ?? ["SIGINT", "SIGTERM"];
  let stopping = false;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const onSignal = () => {
    if (stopping) {
      log.warn("shutdown: second signal, exiting now");
      return exit(1);
    }
    stopping = true;
    deadline = setTimeout(() => {
      log.warn("shutdown: still not done after the deadline, exiting now");
      exit(1);
    }, options.deadlineMs ?? SHUTDOWN_DEADLINE_MS);
    stop().then(
      () => exit(0),
      (err) => {
        log.error("shutdown failed", err);
        exit(1);
      },
    ).finally(() => clearTimeout(deadline));
  };
  for (const sig of signals) Deno.addSignalListener(sig, onSignal);
  return () => {
    clearTimeout(deadline);
    for (const sig of signals) Deno.removeSignalListener(sig, onSignal);
  };
}
