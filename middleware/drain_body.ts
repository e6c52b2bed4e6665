/**
 * Drains what is left of a rejected request body (status ≥ 400), up to a limit, so the client reads the
 * status and the keep-alive connection stays usable (docs/api.md#uploads-tus). Without it the server
 * closes the connection mid-upload and the client sees a network error instead of 409/413.
 */
import type { MiddlewareHandler } from "hono";

/** Options of drainBody. */
export interface DrainBodyOptions {
  /** Most bytes read from a rejected body; past that the connection is given up. Default 32 MiB. */
  maxBytes?: number;
}

/** Reads and discards the unread rest of a request body after an error response. */
export function drainBody(options: DrainBodyOptions = {}): MiddlewareHandler {
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  return async function drainBody(c, next) {
    await next();
    const body = c.req.raw.body;
    if (c.res.status < 400 || body === null || body.locked) return;
    const reader = body.getReader();
    let seen = 0;
    try {
      while (seen <= maxBytes) {
        const { done, value } = await reader.read();
        if (done) return;
        seen += value.byteLength;
      }
      await reader.cancel();
    } catch {
      // The client is gone; there is nothing left to keep alive.
      return;
    } finally {
      reader.releaseLock();
    }
  };
}
