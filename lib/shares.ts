/**
 * Share links (docs/api.md#shares): the authenticated management API. The public access checks live in
 * share_access.ts (re-exported here for the callers that import them from this module).
 * Secrets (bcrypt hash, bypass token) stay in KV; authenticated answers carry `hasPassword` only.
 */
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "./errors.ts";
import { hashPassword } from "./auth/passwords.ts";
import { resolveScoped, scopeDirOf } from "./fs/gate.ts";
import { canonicalPath, cleanVpath } from "./fs/path.ts";
import { isValidCustomLink } from "./share_link.ts";
import { dropFieldsOf } from "./drop.ts";
import { shares, type StoredShare, users } from "./storage/mod.ts";
import type { Share, StoredUser } from "./types.ts";
import type { RequestContext } from "./request_context.ts";

export {
  type OpenedShare,
  openShare,
  type PublicCredentials,
  publicDownload,
  publicResourceJson,
  splitSharePath,
} from "./share_access.ts";

/** What the share management API needs of the request: who asks, through which gate, KV and the clock. */
type ShareCaller = Pick<RequestContext, "user" | "gate" | "kv" | "now">;

const UNIT_SECONDS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };
const MAX_DURATION = 2147483647;

/** The wire form of a stored share: no secrets. */
export function toWireShare(s: StoredShare): Share {
  const wire: Share = {
    hash: s.hash,
    path: s.path,
    userID: s.userID,
    expire: s.expire,
    hasPassword: !!s.passwordHash,
  };
  if (s.created) wire.created = s.created;
  if (s.kind === "drop") {
    Object.assign(wire, {
      kind: s.kind,
      maxFileSize: s.maxFileSize,
      maxFiles: s.maxFiles,
      uploads: s.uploads,
    });
  }
  return wire;
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A random link hash: 6 random bytes as 8 URL-safe base64 characters. */
export function newShareHash(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(6)));
}

/** A random password-bypass token: 96 random bytes as 128 URL-safe base64 characters. */
export function newShareToken(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(96)));
}

/** Throws 403 unless the user may use the share API (`share` and `download`). */
export function assertCanShare(user: StoredUser): void {
  if (!user.perm.share || !user.perm.download) throw new ForbiddenError("permission_denied");
}

/** GET /api/shares: every live link for admins, the user's own otherwise (userID, then expire). */
export async function listSharesFor(ctx: ShareCaller): Promise<Share[]> {
  const { user } = ctx;
  assertCanShare(user);
  const list = await shares.listShares(ctx.kv, ctx.now(), user.perm.admin ? {} : { userId: user.id });
  return list.map(toWireShare);
}

function canonical(vpath: string): string {
  const c = cleanVpath(vpath);
  return c.path + (c.trailingSlash ? "/" : "");
}

function onDisk(root: string, user: StoredUser, vpath: string): string {
  return canonicalPath(`${scopeDirOf({ root, user })}/${cleanVpath(vpath).path}`);
}

/** GET /api/share<vpath>: own links on exactly this path; for admins, every owner's links on the same file. */
export async function sharesOfPath(ctx: ShareCaller, vpath: string): Promise<Share[]> {
  assertCanShare(ctx.user);
  const now = ctx.now();
  if (!ctx.user.perm.admin) {
    const path = canonical(vpath);
    return (await shares.listShares(ctx.kv, now, { userId: ctx.user.id }))
      .filter((s) => s.path === path).map(toWireShare);
  }
  const root = ctx.gate.root;
  const target = onDisk(root, ctx.user, vpath);
  const owners = new Map<number, StoredUser | null>();
  const out: Share[] = [];
  for (const s of await shares.listShares(ctx.kv, now)) {
    if (!owners.has(s.userID)) owners.set(s.userID, await users.findUser(ctx.kv, s.userID));
    const owner = owners.get(s.userID);
    if (owner && onDisk(root, owner, s.path) === target) out.push(toWireShare(s));
  }
  return out;
}

/** The JSON body of POST /api/share. */
export interface CreateShareBody {
  password?: string;
  expires?: string;
  unit?: string;
  custom?: boolean;
  customLink?: string;
}

function parseBody(body: Record<string, unknown>): CreateShareBody {
  const out: CreateShareBody = {};
  for (const k of ["password", "expires", "unit", "customLink"] as const) {
    const v = body[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== "string") throw new BadRequestError(`"${k}" must be a string`, { code: "bad_type" });
    out[k] = v;
  }
  if (body.custom !== undefined && body.custom !== null) {
    if (typeof body.custom !== "boolean") {
      throw new BadRequestError(`"custom" must be a boolean`, { code: "bad_type" });
    }
    out.custom = body.custom;
  }
  return out;
}

/** Unix seconds of a link's expiry: 0 for none; `expires` is a decimal string, unknown units mean hours. */
export function expiryOf(expires: string | undefined, unit: string | undefined, nowMs: number): number {
  if (!expires) return 0;
  const n = /^[+-]?\d{1,10}$/.test(expires.trim()) ? Number(expires.trim()) : NaN;
  // The dialog allows 1..2147483647; bigger values would overflow int64 Unix times in other clients.
  if (!(Math.abs(n) <= MAX_DURATION)) {
    throw new BadRequestError(`invalid expires value "${expires}"`, { code: "bad_expires" });
  }
  return Math.floor(nowMs / 1000) + n * (UNIT_SECONDS[unit ?? ""] ?? 3600);
}

/** Whether a custom link name is acceptable (the rule the share dialog checks too). */
export { isValidCustomLink };

/** POST /api/share<vpath>: creates a link (random hash, or the custom link; 409 when that is taken). */
export async function createShareLink(
  ctx: ShareCaller,
  options: { vpath: string; body: Record<string, unknown> },
): Promise<Share> {
  assertCanShare(ctx.user);
  const body = parseBody(options.body);
  const p = await resolveScoped(ctx.gate, options.vpath, "read");
  if (p.lstat === null || p.stat === null) throw new NotFoundError();
  const drop = dropFieldsOf(ctx.user, options.body, p.stat);
  const expire = expiryOf(body.expires, body.unit, ctx.now());
  let passwordHash = "";
  let token = "";
  if (body.password) {
    passwordHash = await hashPassword(body.password);
    token = newShareToken();
  }
  const link: StoredShare = {
    hash: "",
    path: canonical(options.vpath),
    userID: ctx.user.id,
    expire,
    passwordHash,
    token,
    created: Math.floor(ctx.now() / 1000),
    ...drop,
  };
  if (body.custom) {
    const custom = (body.customLink ?? "").trim();
    if (!isValidCustomLink(custom)) {
      throw new BadRequestError("custom links support only letters, digits, '-', '_', '.' and '~'", {
        code: "bad_custom_link",
      });
    }
    link.hash = custom;
    if (!await shares.createShare(ctx.kv, link)) throw new ConflictError("share_exists");
    return toWireShare(link);
  }
  for (let attempt = 0; attempt < 10; attempt++) {
    link.hash = newShareHash();
    if (await shares.createShare(ctx.kv, link)) return toWireShare(link);
  }
  throw new Error("could not find a free share hash");
}

/** DELETE /api/share/<hash>: 400 empty, 404 unknown/expired, 403 someone else's link (unless admin). */
export async function removeShareLink(ctx: ShareCaller, hash: string): Promise<void> {
  const { user } = ctx;
  assertCanShare(user);
  const h = hash.replace(/^\/+|\/+$/g, "");
  if (!h) throw new BadRequestError();
  const link = await shares.findShare(ctx.kv, h, ctx.now());
  if (!link) throw new NotFoundError();
  if (link.userID !== user.id && !user.perm.admin) throw new ForbiddenError("not_owner");
  await shares.deleteShare(ctx.kv, link);
}
