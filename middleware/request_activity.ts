/** Counts the request as in flight (lib/request_activity.ts) until its response is ready. */
import type { MiddlewareHandler } from "hono";
import type { RequestActivity } from "../lib/request_activity.ts";

/** Marks every request as in flight while its handler runs, so background work lets it go first. */
export function requestActivity(activity: RequestActivity): MiddlewareHandler {
  return async function requestActivity(_c, next) {
    const done = activity.begin();
    try {
      await next();
    } finally {
      done();
    }
  };
}
