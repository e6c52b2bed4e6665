/** Authentication: login, signup, token issue/renewal, request authentication and logout. */
import {
  BadRequestError,
  ForbiddenError,
  MethodNotAllowedError,
  toHttpError,
  UnauthorizedError,
} from "../errors.ts";
import { audit } from "../audit/mod.ts";
import { log } from "../log.ts";
import type { AppDeps } from "../state.ts";
import type { Settings, StoredUser } from "../types.ts";
import { sessions, users } from "../storage/mod.ts";
import { newSessionId } from "../storage/sessions.ts";
import { provisionUser } from "../users.ts";
import { hookLogin } from "./hook.ts";
import { randomPassword, verifyPassword } from "./passwords.ts";
import { verifyCaptcha } from "./captcha.ts";
import { isTrustedAddress } from "../client_address.ts";
import { foldName } from "../storage/keys.ts";
import { looksLikeToken, signToken, verifyToken } from "./tokens.ts";
import { normalizeSettings } from "../settings.ts";
import { hasTwoFactor, needsEnrollment, verifySecondFactorWithin } from "./twofa.ts";
import { hasAppPassword, verifyAppPassword } from "./app_passwords.ts";

export { looksLikeToken } from "./tokens.ts";

/** The account used by guest mode. */
export const GUEST_USERNAME = "guest";

/** Issues a token for a user in a new session (or renews an existing session). */
export async function issueToken(
  deps: AppDeps,
  user: StoredUser,
  options: { sessionId?: string; appPasswordId?: string } = {},
): Promise<string> {
  const now = deps.now();
  const lifetime = deps.config.tokenExpiration;
  const id = options.sessionId ?? newSessionId();
  const settings = normalizeSettings(await deps.store.findSettings());
  const mustEnroll = await isEnrollmentPending(deps, settings, user);
  await sessions.saveSession(deps.kv, {
    id,
    userId: user.id,
    epoch: user.sessionEpoch ?? 0,
    created: now,
    expires: now + lifetime * 1000,
    ...(options.appPasswordId ? { appPasswordId: options.appPasswordId } : {}),
  }, now);
  // A login racing the revocation of its app password: the revocation deletes the password, then the sessions
  // it opened. Checked after the session is saved, so either this sees the password gone or the sweep sees the
  // session.
  if (options.appPasswordId && !await hasAppPassword(deps.kv, user.id, options.appPasswordId)) {
    await sessions.deleteSession(deps.kv, id);
    throw new ForbiddenError("wrong_credentials");
  }
  return signToken(user, {
    secret: await deps.store.getSecret(),
    sessionId: id,
    lifetimeSeconds: lifetime,
    nowMs: now,
    mustEnroll,
  });
}

/**
 * True when the admin requires this user to use two-factor login and they have not enrolled yet. Only logins
 * that check a password can ask for a code: with proxy or no authentication nobody must enrol.
 */
export async function isEnrollmentPending(
  deps: AppDeps,
  settings: Settings,
  user: StoredUser,
): Promise<boolean> {
  const method = deps.config.authMethod;
  if (method !== "json" && method !== "hook") return false;
  return await needsEnrollment(deps.kv, settings, user);
}

/** The header of a 401 that asks the client to send the login again with a code (`otp`). */
export const TWO_FACTOR_HEADER = "X-2FA-Required";

/**
 * The second step of a password login for a user with two-factor login on: no code is a 401 with
 * {@link TWO_FACTOR_HEADER} (the password was right, so its throttle slot is given back); a wrong or replayed
 * code is a 403 that keeps its slot, like a wrong password, and spends one of the account's budget of wrong
 * codes (429 once it is spent, from any client).
 */
async function checkSecondFactor(
  deps: AppDeps,
  user: StoredUser,
  otp: string | undefined,
  attempt: { release(): Promise<void> },
): Promise<void> {
  if (!await hasTwoFactor(deps.kv, user.id)) return;
  if (!otp) {
    await attempt.release();
    throw new UnauthorizedError("twofa_required", undefined, { headers: { [TWO_FACTOR_HEADER]: "totp" } });
  }
  // Wrong codes also count per account, whatever the client (429 past the budget).
  if (
    !await verifySecondFactorWithin(deps.kv, deps.throttles.secondFactor, user.id, {
      code: otp,
      now: deps.now(),
    })
  ) {
    throw new ForbiddenError("wrong_otp");
  }
}

/** Credentials of a login request. */
export interface LoginInput {
  username: string;
  password: string;
  /** Client address for throttling. */
  client: string;
  /** Human-verification token (the `recaptcha` field). */
  captcha?: string;
  /** Two-factor code (TOTP or recovery code), our `otp` field. */
  otp?: string;
  /** Username from the proxy header, when the request came from a trusted proxy. */
  proxyUser?: string | null;
}

/**
 * Checks credentials per the auth method and returns a fresh token. Every outcome goes to the audit log with the
 * username tried and the client (never the password or the code).
 */
export async function login(deps: AppDeps, settings: Settings, input: LoginInput): Promise<string> {
  const tried = deps.config.authMethod === "proxy" ? input.proxyUser ?? "" : input.username;
  try {
    const { token, username } = await checkLogin(deps, settings, input);
    await audit(deps, { user: username, action: "login", client: input.client, status: 200 });
    return token;
  } catch (err) {
    const { status, code } = toHttpError(err);
    // A failed login is anonymous: anyone can send them, and past a few a minute they are counted instead.
    const failed = { user: tried, action: "login", client: input.client, status, detail: code };
    await audit(deps, failed, { anonymous: true });
    throw err;
  }
}

async function checkLogin(
  deps: AppDeps,
  settings: Settings,
  input: LoginInput,
): Promise<{ token: string; username: string }> {
  const issue = async (user: StoredUser, appPasswordId?: string) => ({
    token: await issueToken(deps, user, { appPasswordId }),
    username: user.username,
  });
  const method = deps.config.authMethod;
  if (method === "noauth") {
    const user = await users.findUser(deps.kv, 1);
    if (!user) throw new Error("noauth: user 1 does not exist");
    return issue(user);
  }
  if (method === "proxy") {
    if (!input.proxyUser) throw new ForbiddenError("proxy_header_missing");
    const user = await users.findUserByName(deps.kv, input.proxyUser) ??
      await provisionUser(input.proxyUser, randomPassword(22), {
        kv: deps.kv,
        root: deps.config.root,
        settings,
        minPasswordLength: 0,
        source: "proxy",
      });
    return issue(user);
  }
  // Count the attempt before anything is awaited: simultaneous guesses must not all get through.
  const throttle = deps.throttles.login;
  const attempt = await throttle.reserve(input.client, foldName(input.username), deps.now());
  if (settings.enableGuest && input.username === GUEST_USERNAME && input.password === "") {
    // Guest mode: the admin created a "guest" account and reviewed its permissions; it logs in without a password.
    const guest = await users.findUserByName(deps.kv, GUEST_USERNAME);
    if (!guest) throw new ForbiddenError("guest_missing");
    await attempt.release();
    return issue(guest);
  }
  // A refused or failed verification keeps the slot: it counts like a wrong password.
  if (deps.config.recaptcha) {
    await verifyCaptcha(deps.config.recaptcha, input.captcha ?? "", { remoteIp: input.client });
  }
  if (method === "hook") {
    // A refusal keeps the slot (it counts like a wrong password); a success gives it back.
    const user = await hookLogin(
      { kv: deps.kv, root: deps.config.root, settings, command: deps.config.authCommand },
      input.username,
      input.password,
    );
    await checkSecondFactor(deps, user, input.otp, attempt);
    await attempt.release();
    return issue(user);
  }
  const user = await users.findUserByName(deps.kv, input.username);
  // Always run bcrypt, even for unknown users, so response time does not reveal which usernames exist.
  const ok = await verifyPassword(input.password, user?.passwordHash ?? null);
  // An app password stands for a login that cannot answer a code (scripts, sync clients): only where the admin
  // allows it, and then without the second factor.
  const viaAppPassword = !!user && !ok && settings.appPasswordsForLogin === true
    ? await verifyAppPassword(deps.kv, user, input.password, { now: deps.now() })
    : null;
  if (!user || !(ok || viaAppPassword)) throw new ForbiddenError("wrong_credentials");
  if (!viaAppPassword) await checkSecondFactor(deps, user, input.otp, attempt);
  await attempt.release();
  // The session remembers its app password: revoking it ends the session, and it is never renewed.
  return issue(user, viaAppPassword?.id);
}

/** Self-registration (settings.signup); never grants admin or execute. */
export async function signup(
  deps: AppDeps,
  settings: Settings,
  input: { username: string; password: string },
): Promise<StoredUser> {
  if (!settings.signup || deps.config.authMethod !== "json") {
    throw new MethodNotAllowedError("signup_disabled");
  }
  if (!input.username.trim() || !input.password) throw new BadRequestError();
  // Not trimmed: provisionUser refuses surrounding whitespace (and invisible characters) with a message.
  return await provisionUser(input.username, input.password, {
    kv: deps.kv,
    root: deps.config.root,
    settings,
    minPasswordLength: Math.max(deps.config.minPasswordLength, 1),
    source: "signup",
  });
}

/** The outcome of authenticating a request. */
export interface Authenticated {
  user: StoredUser;
  sessionId: string;
  /** True when the client should call /api/renew. */
  renew: boolean;
}

/** The 403 of a renewal of a session opened with an app password. */
export const APP_PASSWORD_RENEW_REFUSED = "app_password_session";

/** Validates a token: signature, expiry, live session, same session epoch, existing user. */
export async function authenticateToken(deps: AppDeps, token: string | null): Promise<Authenticated> {
  if (!looksLikeToken(token)) throw new UnauthorizedError("no_token");
  const now = deps.now();
  const claims = await verifyToken(token, { secret: await deps.store.getSecret(), nowMs: now });
  const session = deps.cache
    ? await deps.cache.findSession(claims.sessionId, now)
    : await sessions.findSession(deps.kv, claims.sessionId, now);
  if (!session || session.userId !== claims.userId) throw new UnauthorizedError("session_revoked");
  const user = deps.cache
    ? await deps.cache.findUser(claims.userId)
    : await users.findUser(deps.kv, claims.userId);
  // A deleted user's token is 401, not upstream's 500.
  if (!user) throw new UnauthorizedError("user_deleted");
  if ((user.sessionEpoch ?? 0) !== session.epoch) throw new UnauthorizedError("session_revoked");
  // A session opened with an app password ends with its token: nothing asks it to renew.
  const renew = !session.appPasswordId &&
    (claims.exp * 1000 - now < 3600_000 || Math.floor((user.updatedAt ?? 0) / 1000) > claims.iat);
  return { user, sessionId: claims.sessionId, renew };
}

/**
 * Re-issues a token for the same session from the current stored user. A session opened with an app password is
 * not extended (403): it ends when its token expires or the app password is revoked, and the script logs in again.
 */
export async function renewToken(
  deps: AppDeps,
  auth: Pick<Authenticated, "user" | "sessionId">,
): Promise<string> {
  const now = deps.now();
  const session = deps.cache
    ? await deps.cache.findSession(auth.sessionId, now)
    : await sessions.findSession(deps.kv, auth.sessionId, now);
  if (!session) throw new UnauthorizedError("session_revoked");
  if (session.appPasswordId) throw new ForbiddenError(APP_PASSWORD_RENEW_REFUSED);
  return await issueToken(deps, auth.user, { sessionId: auth.sessionId });
}

/** Ends a session. */
export async function logout(deps: AppDeps, sessionId: string): Promise<void> {
  await sessions.deleteSession(deps.kv, sessionId);
}

/** True when a proxy header may be trusted from this remote address. */
export function isTrustedProxy(deps: AppDeps, remoteAddress: string | undefined): boolean {
  return isTrustedAddress(remoteAddress, deps.config.trustedProxies);
}

/** First start on an empty database: writes default settings and creates the admin. Returns the generated password. */
export async function ensureFirstStart(
  deps: AppDeps,
  settings: Settings,
): Promise<{ created: boolean; password?: string }> {
  const existing = await users.listUsers(deps.kv);
  if (existing.length > 0) return { created: false };
  const minLength = settings.minimumPasswordLength;
  // Long enough for any minimum (base64url: 4 characters per 3 bytes; 72 bytes at most, as bcrypt reads no more).
  const generated = deps.config.adminPassword
    ? undefined
    : randomPassword(Math.max(12, Math.ceil(minLength * 3 / 4)));
  const user = await provisionUser(deps.config.adminUsername, deps.config.adminPassword || generated!, {
    kv: deps.kv,
    root: deps.config.root,
    settings,
    minPasswordLength: minLength,
    source: "first",
  });
  log.info(`created admin user "${user.username}" (id ${user.id})`);
  return { created: true, password: generated };
}
