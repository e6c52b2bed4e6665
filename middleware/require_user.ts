/** Authenticates the request (X-Auth header, or the `auth` cookie on GET) and sets `c.var.user`. */
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { ForbiddenError } from "../lib/errors.ts";
import { authenticateToken, isEnrollmentPending, looksLikeToken } from "../lib/auth/mod.ts";
import type { AppEnv } from "../lib/state.ts";
import { setRequestUser } from "./request_context.ts";

/** Options of requireUser. */
export interface RequireUserOptions {
  /** Only admins pass (403 otherwise). */
  admin?: boolean;
  /** Also users who must enrol in two-factor login and have not yet (the enrolment itself, renew, logout). */
  enrolling?: boolean;
}

/** Header of the 403 that tells a client its user must enrol in two-factor login first. */
export const ENROLL_HEADER = "X-2FA-Enroll";

/** Reads the token the way filebrowser does: X-Auth if it looks like a JWT, else the cookie for GET only. */
export function tokenFromRequest(req: Request, cookie: string | undefined): string | null {
  const header = req.headers.get("X-Auth");
  if (looksLikeToken(header)) return header;
  if (req.method === "GET" && looksLikeToken(cookie)) return cookie;
  return null;
}

/** Requires a valid session; throws UnauthorizedError (401) or ForbiddenError (403). */
export function requireUser(options: RequireUserOptions = {}): MiddlewareHandler<AppEnv> {
  return async function requireUser(c, next) {
    const auth = await authenticateToken(c.var.deps, tokenFromRequest(c.req.raw, getCookie(c, "auth")));
    await setRequestUser(c, auth);
    if (options.admin && !auth.user.perm.admin) throw new ForbiddenError("admin_only");
    if (!options.enrolling && await isEnrollmentPending(c.var.deps, c.var.settings, auth.user)) {
      throw new ForbiddenError("twofa_enrollment_required", undefined, {
        headers: { [ENROLL_HEADER]: "required" },
      });
    }
    if (auth.renew) c.header("X-Renew-Token", "true");
    await next();
  };
}
