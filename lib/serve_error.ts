/** What the server does with an error that Deno.serve catches itself (its `onError`). */
import { log } from "./log.ts";

function isAbort(err: unknown): boolean {
  return err instanceof DOMException && (err.name === "AbortError" || err.name === "TimeoutError");
}

/**
 * Deno.serve's `onError`. The app answers every handler error itself, so what arrives here is a response
 * body that failed after the status line went out: an archive entry that vanished or could not be read, a
 * compressor that died. Deno then cuts the connection (the chunked body never ends), so the client sees a
 * failed download, never a short file with a 200. Logged at warn with the message (which names the entry):
 * files changing under a download are not a server bug. A client that went away is only debug.
 */
export function onServeError(err: unknown): Response {
  if (isAbort(err)) log.debug("response aborted by the client", err);
  else log.warn(`response aborted: ${err instanceof Error ? err.message : String(err)}`);
  return new Response("500 Internal Server Error\n", {
    status: 500,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
