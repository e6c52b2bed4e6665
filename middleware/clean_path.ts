/** Upstream's router side effects: 301 to the cleaned path, and from a bare API prefix to its `/` form. */
import type { MiddlewareHandler } from "hono";

const BARE_PREFIXES = [
  "resources",
  "raw",
  "search",
  "share",
  "usage",
  "tus",
  "subtitle",
  "preview",
  "public/dl",
  "public/share",
];

/** Redirects requests whose path is not clean (`//`, `/./`). */
export function cleanPath(options: { baseUrl: string }): MiddlewareHandler {
  return async function cleanPath(c, next) {
    const url = new URL(c.req.url);
    const path = url.pathname;
    if (/\/\/|\/\.(\/|$)/.test(path)) {
      const cleaned = path.replace(/\/\.(?=\/|$)/g, "").replace(/\/{2,}/g, "/") || "/";
      return c.body(null, 301, { Location: cleaned + url.search });
    }
    const rel = path.slice(options.baseUrl.length);
    if (rel.startsWith("/api/") && BARE_PREFIXES.includes(rel.slice(5))) {
      return c.body(null, 301, { Location: `${rel}/` + url.search });
    }
    if (options.baseUrl && path === options.baseUrl) {
      return c.body(null, 301, { Location: options.baseUrl + "/" });
    }
    await next();
  };
}
