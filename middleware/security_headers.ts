/** Security headers on every response: CSP, nosniff, frame-ancestors, referrer policy, no-store for the API. */
import type { MiddlewareHandler } from "hono";

/** The default Content-Security-Policy of our pages and API. */
export const DEFAULT_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join("; ");

/** Adds the security headers unless a handler already set a stricter CSP. */
export function securityHeaders(): MiddlewareHandler {
  return async function securityHeaders(c, next) {
    await next();
    const h = c.res.headers;
    if (!h.has("Content-Security-Policy")) h.set("Content-Security-Policy", DEFAULT_CSP);
    h.set("X-Content-Type-Options", "nosniff");
    h.set("Referrer-Policy", "same-origin");
    h.set("X-Frame-Options", "SAMEORIGIN");
    h.set("Cross-Origin-Opener-Policy", "same-origin");
    if (!h.has("Cache-Control")) h.set("Cache-Control", "no-cache, no-store, must-revalidate");
    if (h.get("Content-Type") === "application/json") {
      h.set("Content-Type", "application/json; charset=utf-8");
    }
  };
}
