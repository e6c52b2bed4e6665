/** One log line per request with method, path, status and duration. */
import type { MiddlewareHandler } from "hono";
import { isLogged, log } from "../lib/log.ts";

/** Logs each request after it is answered. */
export function requestLog(): MiddlewareHandler {
  return async function requestLog(c, next) {
    const t0 = performance.now();
    await next();
    const failed = c.res.status >= 500;
    if (!failed && !isLogged("debug")) return;
    const ms = (performance.now() - t0).toFixed(1);
    const line = `${c.req.method} ${new URL(c.req.url).pathname} ${c.res.status} ${ms}ms`;
    if (failed) log.warn(line);
    else log.debug(line);
  };
}
