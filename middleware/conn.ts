/** The client's remote address (undefined under app.request() in tests). */
import type { Context } from "hono";
import { getConnInfo } from "hono/deno";

/** Remote IP of the TCP peer. */
export function remoteAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // No connection info (in-process requests in tests).
    return undefined;
  }
}
