/** The client's remote address: the socket peer, or the client a trusted proxy names (undefined peer in tests). */
import type { Context } from "hono";
import { resolveClientAddress } from "../lib/client_address.ts";
import type { AppEnv } from "../lib/state.ts";
import type { ReauthThrottle } from "../lib/users.ts";
import type { AccountSecurityOptions } from "../lib/auth/account_security.ts";

/**
 * Remote IP of the TCP peer: `Deno.serve` hands the handler info (`remoteAddr`) to Hono as `c.env`. Read here
 * rather than through `hono/deno`, whose module also loads its static-file server and with it Node's `path`
 * (the Node compatibility layer: some 25 ms and 5 MiB at every start).
 */
export function remoteAddress(c: Context): string | undefined {
  const addr = (c.env as Partial<Deno.ServeHandlerInfo> | undefined)?.remoteAddr;
  // No connection info: in-process requests (tests), or a Unix socket.
  return addr && "hostname" in addr ? addr.hostname : undefined;
}

/**
 * The client's address for throttling and logs: `X-Forwarded-For` / `X-Real-IP` count only when the peer is in
 * `--trusted-proxies`; "local" for in-process requests.
 */
export function clientAddress(c: Context<AppEnv>): string {
  const headers = { forwardedFor: c.req.header("X-Forwarded-For"), realIp: c.req.header("X-Real-IP") };
  return resolveClientAddress(remoteAddress(c), headers, c.var.deps.config.trustedProxies);
}

/** The throttle of current-password checks for this request's client (same limit as logins). */
export function reauthThrottle(c: Context<AppEnv>): ReauthThrottle {
  const deps = c.var.deps;
  return {
    throttle: deps.throttles.reauth,
    client: clientAddress(c),
    now: deps.now(),
  };
}

/** The re-authentication context of an account-security request (2FA, app passwords). */
export function securityOptions(c: Context<AppEnv>): AccountSecurityOptions {
  const deps = c.var.deps;
  return {
    kv: deps.kv,
    authMethod: deps.config.authMethod,
    reauth: reauthThrottle(c),
    secondFactor: deps.throttles.secondFactor,
  };
}
