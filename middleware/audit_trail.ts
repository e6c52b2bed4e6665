/**
 * Records API and WebDAV changes in the audit log by route, method and status, after the answer is known (refused
 * requests of anonymous clients within their share, lib/audit/flood.ts):
 * one place that also covers failures (lib/audit/actions.ts says which requests count). Logins are recorded by
 * lib/auth, which knows the username tried. A route may add facts it alone knows through `c.var.auditNote`, or name an action for a request the table
 * leaves out (the last chunk of an upload).
 */
import type { MiddlewareHandler } from "hono";
import { audit } from "../lib/audit/mod.ts";
import { classify } from "../lib/audit/actions.ts";
import type { AppEnv } from "../lib/state.ts";
import { clientAddress } from "./conn.ts";
import { toHttpError } from "../lib/errors.ts";

/** Records the request after it is answered; never changes the answer. */
export function auditTrail(baseUrl: string): MiddlewareHandler<AppEnv> {
  return async function auditTrail(c, next) {
    // A WebSocket upgrade (the command runner) must reach Deno as its own 101 response: one more layer awaiting
    // around it made Hono rebuild that response ("Upgrade response was not returned from callback"). Such
    // requests pass straight through; the runner's sessions are recorded where they open.
    if (c.req.header("Upgrade")?.toLowerCase() === "websocket") return next();
    await next();
    const url = new URL(c.req.url);
    const note = c.get("auditNote");
    const found = classify({
      method: c.req.method,
      path: url.pathname.slice(baseUrl.length),
      query: url.searchParams,
      headers: c.req.raw.headers,
      status: c.res.status,
      code: c.error ? toHttpError(c.error).code : undefined,
    }) ?? (note?.action ? { action: note.action } : null);
    if (!found) return;
    const user = c.get("user");
    await audit(c.var.deps, {
      user: user?.username ?? "",
      action: note?.action ?? found.action,
      path: note?.path ?? found.path,
      target: note?.target ?? found.target,
      detail: note?.detail ?? found.detail,
      client: clientAddress(c),
      status: c.res.status,
    }, { anonymous: !user });
  };
}
