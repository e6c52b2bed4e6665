/** WebSocket handshakes: a well-formed upgrade request (else 400) from our own origin (else 403). */
import type { MiddlewareHandler } from "hono";
import { BadRequestError, ForbiddenError } from "../lib/errors.ts";

function isUpgrade(req: Request): boolean {
  const h = req.headers;
  const connection = (h.get("Connection") ?? "").toLowerCase().split(",").map((s) => s.trim());
  // Hono's Deno adapter compares the Upgrade header exactly; anything else must be a 400, not a failed upgrade.
  return req.method === "GET" && h.get("Upgrade") === "websocket" && connection.includes("upgrade") &&
    !!h.get("Sec-WebSocket-Key") && h.get("Sec-WebSocket-Version") === "13";
}

function hostOf(value: string): string | null {
  try {
    return new URL(value).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Requires a WebSocket upgrade whose `Origin` (when sent) names the host the request was sent to: another site
 * must not drive a logged-in browser's runner (the cookie goes along with cross-site handshakes).
 */
export function webSocketGuard(): MiddlewareHandler {
  return async function webSocketGuard(c, next) {
    if (!isUpgrade(c.req.raw)) throw new BadRequestError();
    const origin = c.req.header("Origin");
    const host = (c.req.header("Host") ?? new URL(c.req.url).host).toLowerCase();
    if (origin !== undefined && hostOf(origin) !== host) throw new ForbiddenError("cross_origin");
    await next();
  };
}
