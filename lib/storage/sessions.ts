/** Login sessions: every token names one; deleting it revokes the token at once. */
import { keys } from "./keys.ts";
import { bumpStateGeneration, notifyStateWrite } from "./changes.ts";

/** A stored session. */
export interface Session {
  id: string;
  userId: number;
  /** The user's sessionEpoch when the session was made; a bumped epoch revokes it. */
  epoch: number;
  created: number;
  expires: number;
  /**
   * The app password this session was opened with (`POST /api/login` with `appPasswordsForLogin`): revoking it
   * ends the session, and such a session is never renewed.
   */
  appPasswordId?: string;
}

/** Creates a random session id (128 bits, URL-safe). */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Stores a session that expires with its token. */
export async function saveSession(kv: Deno.Kv, session: Session, now: number): Promise<void> {
  const expireIn = Math.max(1000, session.expires - now + 60_000);
  await bumpStateGeneration(kv.atomic())
    .set(keys.session(session.id), session, { expireIn })
    .set(keys.sessionByUser(session.userId, session.id), true, { expireIn })
    .commit();
  notifyStateWrite(kv);
}

/** Finds a live session. */
export async function findSession(kv: Deno.Kv, id: string, now: number): Promise<Session | null> {
  const s = (await kv.get<Session>(keys.session(id))).value;
  if (!s || s.expires <= now) return null;
  return s;
}

/** Deletes one session. */
export async function deleteSession(kv: Deno.Kv, id: string): Promise<void> {
  const s = (await kv.get<Session>(keys.session(id))).value;
  const op = bumpStateGeneration(kv.atomic()).delete(keys.session(id));
  if (s) op.delete(keys.sessionByUser(s.userId, id));
  await op.commit();
  notifyStateWrite(kv);
}

/** Deletes every session of a user, except `exceptId` when given. */
export async function deleteUserSessions(
  kv: Deno.Kv,
  userId: number,
  options: { exceptId?: string } = {},
): Promise<number> {
  let n = 0;
  for await (const e of kv.list({ prefix: keys.sessionsByUserPrefix(userId) })) {
    const id = String(e.key[e.key.length - 1]);
    if (id === options.exceptId) continue;
    await deleteSession(kv, id);
    n++;
  }
  return n;
}

/** Moves a live session to a new epoch (the user changed their own password and keeps this session). */
export async function restampSession(kv: Deno.Kv, id: string, epoch: number, now: number): Promise<void> {
  const s = await findSession(kv, id, now);
  if (s) await saveSession(kv, { ...s, epoch }, now);
}

/**
 * Deletes the sessions of a user opened with one app password (`appPasswordId`), or with any app password
 * (`null`). Returns how many ended.
 */
export async function deleteAppPasswordSessions(
  kv: Deno.Kv,
  userId: number,
  appPasswordId: string | null,
): Promise<number> {
  let n = 0;
  for await (const e of kv.list({ prefix: keys.sessionsByUserPrefix(userId) })) {
    const id = String(e.key[e.key.length - 1]);
    const s = (await kv.get<Session>(keys.session(id))).value;
    if (!s?.appPasswordId || (appPasswordId !== null && s.appPasswordId !== appPasswordId)) continue;
    await deleteSession(kv, id);
    n++;
  }
  return n;
}
