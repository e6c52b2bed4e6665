/**
 * Page guard: reads the session from the `auth` cookie (pages are plain GET navigations) and sets `c.var.user`.
 * Without a valid session it throws UnauthorizedError, which the app's onError turns into the redirect to
 * `/login?redirect=<path>` (app.ts); admin-only pages send other users to /403.
 */
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { authenticateToken, isEnrollmentPending, looksLikeToken } from "../lib/auth/mod.ts";
import { UnauthorizedError } from "../lib/errors.ts";
import type { AppEnv } from "../lib/state.ts";
import { setRequestUser } from "./request_context.ts";

/** Options of requirePageUser. */
export interface RequirePageUserOptions {
  /** Only admins pass; others are redirected to /403. */
  admin?: boolean;
  /** Never redirect: set the user when the session is valid, continue anonymously otherwise. */
  optional?: boolean;
}

/** Guards a page route (see the module comment). */
export function requirePageUser(options: RequirePageUserOptions = {}): MiddlewareHandler<AppEnv> {
  return async function requirePageUser(c, next) {
    const base = c.var.deps.config.baseUrl;
    const cookie = getCookie(c, "auth");
    const auth = looksLikeToken(cookie)
      ? await authenticateToken(c.var.deps, cookie).catch((err) => {
        // An expired or revoked session is the same as none; anything else is a real failure.
        if (err instanceof UnauthorizedError) return null;
        throw err;
      })
      : null;
    if (auth) {
      await setRequestUser(c, auth);
    } else if (!options.optional) {
      throw new UnauthorizedError("login_required");
    }
    if (options.admin && !auth?.user.perm.admin) return c.redirect(`${base}/403`, 302);
    // A user who must enrol in two-factor login sees only the enrolment in their profile until they do.
    const profile = `${base}/settings/profile`;
    if (auth && !options.optional && new URL(c.req.url).pathname !== profile) {
      if (await isEnrollmentPending(c.var.deps, c.var.settings, auth.user)) return c.redirect(profile, 302);
    }
    await next();
  };
}
