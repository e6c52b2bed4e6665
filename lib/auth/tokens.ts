/** JWTs as filebrowser issues them (docs/api.md): HS256, `{user, iss, exp, iat}` plus our session id `jti`. */
import { jwtVerify, SignJWT } from "jose";
import { UnauthorizedError } from "../errors.ts";
import type { StoredUser, TokenUser } from "../types.ts";

/** The verified claims we use. */
export interface TokenClaims {
  userId: number;
  sessionId: string;
  iat: number;
  exp: number;
}

/** The 12-key user claim, in wire order. */
export function toTokenUser(u: StoredUser): TokenUser {
  return {
    id: u.id,
    locale: u.locale,
    viewMode: u.viewMode,
    singleClick: u.singleClick,
    redirectAfterCopyMove: u.redirectAfterCopyMove,
    perm: { ...u.perm },
    commands: [...u.commands],
    lockPassword: u.lockPassword,
    hideDotfiles: u.hideDotfiles,
    dateFormat: u.dateFormat,
    username: u.username,
    aceEditorTheme: u.aceEditorTheme,
  };
}

/** Signs a token for a user and session. */
export function signToken(
  user: StoredUser,
  options: {
    secret: Uint8Array;
    sessionId: string;
    lifetimeSeconds: number;
    nowMs: number;
    mustEnroll?: boolean;
  },
): Promise<string> {
  const iat = Math.floor(options.nowMs / 1000);
  return new SignJWT({
    user: toTokenUser(user),
    iss: "File Browser",
    exp: iat + options.lifetimeSeconds,
    iat,
    jti: options.sessionId,
    // Our addition, only when set: the user must enrol in two-factor login before anything else.
    ...(options.mustEnroll ? { mustEnroll: true } : {}),
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .sign(options.secret);
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * True when `part` is unpadded base64url in its only spelling: a decoder ignores the unused low bits of the last
 * character (and jose tolerates a trailing `=` or whitespace), so without this check one signature would have
 * several accepted spellings.
 */
function isCanonicalPart(part: string): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(part)) return false;
  const tail = part.length % 4;
  if (tail === 1) return false;
  if (tail === 0) return true;
  return (BASE64URL.indexOf(part[part.length - 1]) & (tail === 2 ? 0x0f : 0x03)) === 0;
}

/** True when a header/cookie value has the shape of a JWT (exactly two dots): filebrowser's choice of X-Auth. */
export function looksLikeToken(value: string | undefined | null): value is string {
  return !!value && value.split(".").length === 3;
}

/**
 * True when `value` is a compact JWT and nothing else: three canonical base64url parts joined by two dots,
 * without padding, whitespace or anything after the signature.
 */
export function isCanonicalToken(value: string): boolean {
  const parts = value.split(".");
  return parts.length === 3 && parts.every(isCanonicalPart);
}

/** Most tokens remembered as verified per signing key; the oldest are dropped first. */
const MAX_VERIFIED = 1000;
const verified = new WeakMap<Uint8Array, Map<string, TokenClaims>>();

/**
 * Verifies signature, algorithm and expiry; throws UnauthorizedError otherwise. A token whose signature was
 * verified with the same key object is not verified again (its expiry still is): a signature cannot become
 * invalid, and revocation is the session check's job.
 */
export async function verifyToken(
  token: string,
  options: { secret: Uint8Array; nowMs: number },
): Promise<TokenClaims> {
  // jose would accept `<token>=` or `<token> ` as the token itself: refuse anything but the exact token.
  if (!isCanonicalToken(token)) throw new UnauthorizedError("invalid_token");
  let known = verified.get(options.secret);
  const hit = known?.get(token);
  if (hit && hit.exp * 1000 > options.nowMs) return { ...hit };
  const claims = await verifySignature(token, options);
  if (!known) verified.set(options.secret, known = new Map());
  if (known.size >= MAX_VERIFIED) known.delete(known.keys().next().value!);
  known.set(token, claims);
  return { ...claims };
}

async function verifySignature(
  token: string,
  options: { secret: Uint8Array; nowMs: number },
): Promise<TokenClaims> {
  try {
    const { payload } = await jwtVerify(token, options.secret, {
      algorithms: ["HS256"],
      currentDate: new Date(options.nowMs),
      requiredClaims: ["exp"],
    });
    const user = payload.user as { id?: unknown } | undefined;
    if (!user || typeof user.id !== "number" || typeof payload.jti !== "string") {
      throw new Error("malformed claims");
    }
    return { userId: user.id, sessionId: payload.jti, iat: payload.iat ?? 0, exp: payload.exp! };
  } catch (err) {
    throw new UnauthorizedError("invalid_token", undefined, { cause: err });
  }
}
