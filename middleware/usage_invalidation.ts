/** Drops the cached quota usage of the scopes a writing request may have changed (lib/quota.ts). */
import type { MiddlewareHandler } from "hono";
import { usageKeyOf } from "../lib/quota.ts";
import type { AppEnv } from "../lib/state.ts";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** After any non-read request of a logged-in user, forgets the usage of every scope overlapping theirs. */
export function usageInvalidation(): MiddlewareHandler<AppEnv> {
  return async function usageInvalidation(c, next) {
    try {
      await next();
    } finally {
      // Every write (upload chunk, save, copy, delete, restore, extract, WebDAV) runs as some user: one rule.
      const user = c.get("user");
      if (!READS.has(c.req.method) && user) {
        const deps = c.get("deps");
        deps.usage.invalidate(usageKeyOf(deps, user));
      }
    }
  };
}
