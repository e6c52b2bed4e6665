/**
 * The one place a request gets its user: `setRequestUser()` stores the user and builds `c.var.ctx`
 * (lib/request_context.ts) for the auth middleware (requireUser, requirePageUser, webdavAuth).
 */
import type { Context } from "hono";
import { createRequestContext } from "../lib/request_context.ts";
import type { AppEnv } from "../lib/state.ts";
import type { StoredUser } from "../lib/types.ts";

/** What an authentication established: the user, and the session when a token was used. */
export interface Authenticated {
  user: StoredUser;
  sessionId?: string;
  renew?: boolean;
}

/** Sets `c.var.user` (and the session facts) and builds the request context `c.var.ctx` for that user. */
export async function setRequestUser(c: Context<AppEnv>, auth: Authenticated): Promise<void> {
  c.set("user", auth.user);
  if (auth.sessionId !== undefined) c.set("sessionId", auth.sessionId);
  if (auth.renew !== undefined) c.set("renew", auth.renew);
  c.set("ctx", await createRequestContext(c.var.deps, c.var.settings, auth.user));
}
