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

/** Where reCAPTCHA's api.js on Google's hosts loads the rest of its code from. */
const GOOGLE_CAPTCHA_HOSTS = ["www.google.com", "www.recaptcha.net", "recaptcha.net"];

/** The CSP of the login page with the human-verification widget from `host` (script, frame, verify calls). */
export function captchaCsp(host: string): string {
  const url = new URL(host);
  const sources = [url.origin];
  if (GOOGLE_CAPTCHA_HOSTS.includes(url.hostname)) sources.push("https://www.gstatic.com/recaptcha/");
  const extra: Record<string, string[]> = {
    "script-src": sources,
    "frame-src": [url.origin],
    "connect-src": [url.origin],
  };
  return DEFAULT_CSP.split("; ").map((d) => {
    const name = d.split(" ")[0];
    return extra[name] ? `${d} ${extra[name].join(" ")}` : d;
  }).join("; ");
}

/** Options of securityHeaders. */
export interface SecurityHeadersOptions {
  /** Path of the login page (with the base URL). */
  loginPath?: string;
  /** Human-verification provider: its host is allowed on the login page only. */
  captchaHost?: string | null;
}

/** Adds the security headers unless a handler already set a stricter CSP. */
export function securityHeaders(options: SecurityHeadersOptions = {}): MiddlewareHandler {
  const loginCsp = options.captchaHost && options.loginPath ? captchaCsp(options.captchaHost) : null;
  return async function securityHeaders(c, next) {
    await next();
    const h = c.res.headers;
    if (!h.has("Content-Security-Policy")) {
      const login = loginCsp && c.req.path.replace(/\/+$/, "") === options.loginPath;
      h.set("Content-Security-Policy", login ? loginCsp : DEFAULT_CSP);
    }
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
