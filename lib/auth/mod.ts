/** Authentication: login, signup, token issue/renewal, request authentication and logout. */
import { BadRequestError, ForbiddenError, MethodNotAllowedError, UnauthorizedError } from "../errors.ts";
import { log } from "../log.ts";
import type { AppDeps } from "../state.ts";
import type { Settings, StoredUser } from "../types.ts";
import { sessions, users } from "../storage/mod.ts";
import { newSessionId } from "../storage/sessions.ts";
import { provisionUser } from "../users.ts";
import { hookLogin } from "./hook.ts";
import { randomPassword, verifyPassword } from "./passwords.ts";
import { LoginThrottle } from "./throttle.ts";
import { looksLikeToken, signToken, verifyToken } from "./tokens.ts";

export { looksLikeToken } from "./tokens.ts";

/** The account used by guest mode. */
export const GUEST_USERNAME = "guest";

const throttles = new WeakMap<AppDeps, LoginThrottle>();

function throttleOf(deps: AppDeps): LoginThrottle {
  let t = throttles.get(deps);
  if (!t) throttles.set(deps, t = new LoginThrottle(deps.config.loginRateLimit));
  return t;
}

/** Issues a token for a user in a new session (or renews an existing session). */
export async function issueToken(
  deps: AppDeps,
  user: StoredUser,
  options: { sessionId?: string } = {},
): Promise<string> {
  const now = deps.now();
  const lifetime = deps.config.tokenExpiration;
  const id = options.sessionId ?? newSessionId();
  await sessions.saveSession(deps.kv, {
    id,
    userId: user.id,
    epoch: user.sessionEpoch ?? 0,
    created: now,
    expires: now + lifetime * 1000,
  }, now);
  return signToken(user, {
    secret: await deps.store.getSecret(),
    sessionId: id,
    lifetimeSeconds: lifetime,
    nowMs: now,
  });
}

/** Credentials of a login request. */
export interface LoginInput {
  username: string;
  password: string;
  /** Client address for throttling. */
  client: string;
  /** Username from the proxy header, when the request came from a trusted proxy. */
  proxyUser?: string | null;
}

/** Checks credentials per the auth method and returns a fresh token. */
export async function login(deps: AppDeps, settings: Settings, input: LoginInput): Promise<string> {
  const method = deps.config.authMethod;
  if (method === "noauth") {
    const user = await users.findUser(deps.kv, 1);
    if (!user) throw new Error("noauth: user 1 does not exist");
    return issueToken(deps, user);
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
    return issueToken(deps, user);
  }
  const throttle = throttleOf(deps);
  throttle.check(input.client, deps.now());
  if (settings.enableGuest && input.username === GUEST_USERNAME && input.password === "") {
    // Guest mode: the admin created a "guest" account and reviewed its permissions; it logs in without a password.
    const guest = await users.findUserByName(deps.kv, GUEST_USERNAME);
    if (!guest) throw new ForbiddenError("guest_missing");
    return issueToken(deps, guest);
  }
  if (method === "hook") {
    const user = await hookLogin(
      { kv: deps.kv, root: deps.config.root, settings, command: deps.config.authCommand },
      input.username,
      input.password,
    ).catch((err) => {
      if (err instanceof ForbiddenError) throttle.fail(input.client, deps.now());
      throw err;
    });
    throttle.succeed(input.client);
    return issueToken(deps, user);
  }
  const user = await users.findUserByName(deps.kv, input.username);
  // Always run bcrypt, even for unknown users, so response time does not reveal which usernames exist.
  const ok = await verifyPassword(input.password, user?.passwordHash ?? null);
  if (!user || !ok) {
    throttle.fail(input.client, deps.now());
    throw new ForbiddenError("wrong_credentials");
  }
  throttle.succeed(input.client);
  return issueToken(deps, user);
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
  return await provisionUser(input.username.trim(), input.password, {
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

/** Validates a token: signature, expiry, live session, same session epoch, existing user. */
export async function authenticateToken(deps: AppDeps, token: string | null): Promise<Authenticated> {
  if (!looksLikeToken(token)) throw new UnauthorizedError("no_token");
  const now = deps.now();
  const claims = await verifyToken(token, { secret: await deps.store.getSecret(), nowMs: now });
  const session = await sessions.findSession(deps.kv, claims.sessionId, now);
  if (!session || session.userId !== claims.userId) throw new UnauthorizedError("session_revoked");
  const user = await users.findUser(deps.kv, claims.userId);
  // A deleted user's token is 401, not upstream's 500.
  if (!user) throw new UnauthorizedError("user_deleted");
  if ((user.sessionEpoch ?? 0) !== session.epoch) throw new UnauthorizedError("session_revoked");
  const renew = claims.exp * 1000 - now < 3600_000 || Math.floor((user.updatedAt ?? 0) / 1000) > claims.iat;
  return { user, sessionId: claims.sessionId, renew };
}

/** Re-issues a token for the same session from the current stored user. */
export function renewToken(deps: AppDeps, auth: Authenticated): Promise<string> {
  return issueToken(deps, auth.user, { sessionId: auth.sessionId });
}

/** Ends a session. */
export async function logout(deps: AppDeps, sessionId: string): Promise<void> {
  await sessions.deleteSession(deps.kv, sessionId);
}

/** True when a proxy header may be trusted from this remote address. */
export function isTrustedProxy(deps: AppDeps, remoteAddress: string | undefined): boolean {
  if (!remoteAddress) return false;
  return deps.config.trustedProxies.includes(remoteAddress) || deps.config.trustedProxies.includes("*");
}

/** First start on an empty database: writes default settings and creates the admin. Returns the generated password. */
export async function ensureFirstStart(
  deps: AppDeps,
  settings: Settings,
): Promise<{ created: boolean; password?: string }> {
  const existing = await users.listUsers(deps.kv);
  if (existing.length > 0) return { created: false };
  const generated = deps.config.adminPassword ? undefined : randomPassword(12);
  const user = await provisionUser(deps.config.adminUsername, deps.config.adminPassword || generated!, {
    kv: deps.kv,
    root: deps.config.root,
    settings,
    minPasswordLength: 1,
    source: "first",
  });
  log.info(`created admin user "${user.username}" (id ${user.id})`);
  return { created: true, password: generated };
}
