/** Authenticates a WebDAV request (HTTP Basic, or the proxy header / noauth per `--auth`) and sets `c.var.user`. */
import type { MiddlewareHandler } from "hono";
import { authenticateDav } from "../lib/webdav/mod.ts";
import type { AppEnv } from "../lib/state.ts";
import { isTrustedProxy } from "../lib/auth/mod.ts";
import { clientAddress, remoteAddress } from "./conn.ts";
import { setRequestUser } from "./request_context.ts";

/** Requires WebDAV credentials; throws 401 with a Basic challenge, or 403 when the user's WebDAV is off. */
export function webdavAuth(): MiddlewareHandler<AppEnv> {
  return async function webdavAuth(c, next) {
    const deps = c.var.deps;
    const proxyUser = deps.config.authMethod === "proxy" && isTrustedProxy(deps, remoteAddress(c))
      ? c.req.header(deps.config.authHeader) ?? null
      : null;
    const user = await authenticateDav(deps, c.var.settings, {
      authorization: c.req.header("Authorization") ?? null,
      client: clientAddress(c),
      proxyUser,
    });
    await setRequestUser(c, { user });
    await next();
  };
}
