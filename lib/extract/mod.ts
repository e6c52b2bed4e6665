/**
 * Server-side extraction of zip and tar archives (docs/api.md#extract): {@link planExtract} checks
 * everything it can before writing (errors are HTTP statuses), {@link extractStream} writes and reports
 * progress as NDJSON (errors from then on are `error` lines).
 */
import { log } from "../log.ts";
import type { ExtractEvent } from "../types.ts";
import type { ExtractPlan } from "./plan.ts";
import { runExtract } from "./run.ts";

export { DEFAULT_EXTRACT_LIMITS, type ExtractLimits, parseConflict, planExtract } from "./plan.ts";
export { runExtract } from "./run.ts";

/** The NDJSON body of an extraction; cancelling it (client gone) aborts the write pass. */
export function extractStream(plan: ExtractPlan, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const abort = new AbortController();
  signal?.addEventListener("abort", () => abort.abort(signal.reason), { once: true });
  const events: AsyncGenerator<ExtractEvent> = runExtract(plan, abort.signal);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await events.next();
        if (next.done) controller.close();
        else controller.enqueue(enc.encode(JSON.stringify(next.value) + "\n"));
      } catch (err) {
        // Only an abort gets here (runExtract reports every other failure as an `error` line).
        log.debug("extract: stopped", err);
        controller.close();
      }
    },
    async cancel(reason) {
      abort.abort(reason);
      await events.return(undefined).catch((err) => log.debug("extract: closing failed", err));
    },
  });
}
