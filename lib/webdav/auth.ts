/**
 * Who a WebDAV request is: HTTP Basic with the account password (the login's verification and the login
 * throttle's counters), the trusted proxy header with `--auth proxy`, user 1 with `--auth noauth`. A user
 * whose `webdav` switch is off is refused (403).
 *
 * WebDAV clients send the password with every request. So that they neither pay bcrypt each time nor eat
 * the login throttle, a verified (username, password) pair is remembered for a few minutes as an HMAC under
 * a key of the app's store (`AppDeps.davCredentials`, lib/webdav/credentials.ts), tied to the stored password
 * hash: a password change or a deleted user ends it at once.
 * Only failed verifications keep their throttle slot.
 *
 * The two-factor rules of the web login hold here too: with two-factor login on, the account password alone is
 * refused (clients use an app password); while the admin requires an enrolment the user has not made yet, nothing
 * signs in over WebDAV, as every API call but the enrolment is refused (docs/security.md#two-factor-login).
 */
import { verifyAppPassword } from "../auth/app_passwords.ts";
import { hasTwoFactor } from "../auth/twofa.ts";
import { isEnrollmentPending } from "../auth/mod.ts";
import { ForbiddenError, UnauthorizedError } from "../errors.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { users } from "../storage/mod.ts";
import { foldName } from "../storage/keys.ts";
import type { AppDeps } from "../state.ts";
import type { Settings, StoredUser } from "../types.ts";
import { CREDENTIAL_TTL_MS } from "./credentials.ts";

/** What the auth step knows about the request. */
export interface DavAuthInput {
  /** The Authorization header. */
  authorization: string | null;
  /** Client address for throttling. */
  client: string;
  /** Username from the proxy header, when the request came from a trusted proxy. */
  proxyUser?: string | null;
}

/** The realm of the Basic challenge: the instance name. */
export function realmOf(settings: Settings): string {
  return (settings.branding?.name || "File Browser").replace(/["\\\r\n]/g, "");
}

function challenge(settings: Settings, code: string): UnauthorizedError {
  return new UnauthorizedError(code, undefined, {
    headers: { "WWW-Authenticate": `Basic realm="${realmOf(settings)}", charset="UTF-8"` },
  });
}

/** Decodes a Basic Authorization header; null when absent or not Basic, 401 when malformed. */
export function parseBasic(header: string | null): { username: string; password: string } | null {
  const m = header?.match(/^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (!m) return null;
  let text: string;
  try {
    const bytes = Uint8Array.from(atob(m[1]), (c) => c.charCodeAt(0));
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  const i = text.indexOf(":");
  if (i < 0) return null;
  return { username: text.slice(0, i), password: text.slice(i + 1) };
}

function assertAllowed(user: StoredUser): StoredUser {
  if (user.webdav === false) {
    throw new ForbiddenError("webdav_disabled");
  }
  return user;
}

/**
 * Why a verified account password still does not sign in, or null: two-factor login is on (WebDAV clients
 * cannot answer a code, they use an app password), or the admin requires an enrolment not made yet.
 */
async function accountPasswordRefusal(
  deps: AppDeps,
  settings: Settings,
  user: StoredUser,
): Promise<string | null> {
  if (await hasTwoFactor(deps.kv, user.id)) return "app_password_required";
  return await isEnrollmentPending(deps, settings, user) ? "twofa_enrollment_required" : null;
}

/** Authenticates a WebDAV request; 401 with a Basic challenge, 403 when the user's WebDAV switch is off. */
export async function authenticateDav(
  deps: AppDeps,
  settings: Settings,
  input: DavAuthInput,
): Promise<StoredUser> {
  const method = deps.config.authMethod;
  if (method === "noauth") {
    const user = await users.findUser(deps.kv, 1);
    if (!user) throw new UnauthorizedError("noauth_user_missing");
    return assertAllowed(user);
  }
  if (method === "proxy") {
    const user = input.proxyUser ? await users.findUserByName(deps.kv, input.proxyUser) : null;
    if (!user) throw new UnauthorizedError("proxy_header_missing");
    return assertAllowed(user);
  }
  const credentials = parseBasic(input.authorization);
  if (!credentials) throw challenge(settings, "no_credentials");
  const now = deps.now();
  const remembered = deps.davCredentials;
  const key = await remembered.fingerprint(credentials.username, credentials.password);
  const known = remembered.find(key, now);
  if (known) {
    const user = await users.findUser(deps.kv, known.userId);
    // Turning two-factor login on, or requiring it, ends remembered account passwords too.
    if (
      user && user.passwordHash === known.passwordHash &&
      await accountPasswordRefusal(deps, settings, user) === null
    ) {
      return assertAllowed(user);
    }
    remembered.forget(key);
  }
  // Same counters as the login form: guesses over WebDAV and over /api/login share one budget.
  const throttle = deps.throttles.login;
  const attempt = await throttle.reserve(input.client, foldName(credentials.username), now);
  const user = await users.findUserByName(deps.kv, credentials.username);
  // An app password works always; it is checked first (a cheap hash) and never remembered here, so revoking it
  // takes effect on the next request.
  if (user && await verifyAppPassword(deps.kv, user, credentials.password, { now })) {
    await attempt.release();
    // Until the required enrolment is made, the account signs in nowhere but at the enrolment (the right
    // secret gave its slot back: a client retrying must not lock its owner out of the web login that enrols).
    if (await isEnrollmentPending(deps, settings, user)) {
      throw challenge(settings, "twofa_enrollment_required");
    }
    return assertAllowed(user);
  }
  // Always run the verification, even for unknown users, so timing does not reveal which usernames exist.
  const ok = await verifyPassword(credentials.password, user?.passwordHash ?? null);
  if (!user || !ok) throw challenge(settings, "wrong_credentials");
  // With two-factor login on, the account password alone is not enough: WebDAV clients use an app password.
  // That refusal keeps its slot, as before; a pending enrolment gives it back (see above).
  const refusal = await accountPasswordRefusal(deps, settings, user);
  if (refusal === "app_password_required") throw challenge(settings, refusal);
  await attempt.release();
  if (refusal) throw challenge(settings, refusal);
  remembered.remember(key, {
    userId: user.id,
    passwordHash: user.passwordHash,
    until: now + CREDENTIAL_TTL_MS,
  }, now);
  return assertAllowed(user);
}
