/**
 * Decides what an import does with each user and share against what KV already holds: create, leave alone
 * (already imported: re-running is a no-op), or a conflict that is skipped unless `replace` is set. A user
 * whose name breaks the username rules (lib/usernames.ts) is skipped whatever `replace` says.
 */
import { homeScope } from "../users.ts";
import { normalizeUsername } from "../usernames.ts";
import { foldName, keys } from "../storage/keys.ts";
import type { StoredShare } from "../storage/mod.ts";
import type { Settings, StoredUser } from "../types.ts";
import type { DecodedShare, DecodedUser } from "./fb_decode.ts";

/** What KV holds before the import. */
export interface Snapshot {
  users: Map<number, Deno.KvEntry<StoredUser>>;
  /** Folded username → [user id, versionstamp of the index entry]. */
  names: Map<string, { id: number; versionstamp: string }>;
  shares: Map<string, Deno.KvEntry<StoredShare>>;
  /** Taken derived-scope index keys. */
  scopes: Set<string>;
}

/** Reads the current users, name and scope indexes and shares. */
export async function takeSnapshot(kv: Deno.Kv): Promise<Snapshot> {
  const snap: Snapshot = { users: new Map(), names: new Map(), shares: new Map(), scopes: new Set() };
  for await (const e of kv.list<StoredUser>({ prefix: keys.usersPrefix() })) snap.users.set(e.value.id, e);
  for await (const e of kv.list<number>({ prefix: keys.usersByNamePrefix() })) {
    snap.names.set(String(e.key[2]), { id: e.value, versionstamp: e.versionstamp });
  }
  for await (const e of kv.list({ prefix: keys.usersByScopePrefix() })) snap.scopes.add(String(e.key[2]));
  for await (const e of kv.list<StoredShare>({ prefix: keys.sharesPrefix() })) {
    snap.shares.set(e.value.hash, e);
  }
  return snap;
}

/** The action for one user. */
export type UserAction =
  | { kind: "create"; derivedScope?: string }
  | { kind: "unchanged" }
  /** Same id and name, other data: overwrite (replace only). */
  | { kind: "update"; record: string; name: string; epoch: number }
  /** Other users hold the id or the name: delete them first (replace only). */
  | { kind: "replace"; remove: number[]; derivedScope?: string }
  /** `final`: `replace` would not help (the record itself is refused). */
  | { kind: "skip"; reason: string; final?: true };

/** The action for one share. */
export type ShareAction =
  | { kind: "create" }
  | { kind: "unchanged" }
  | { kind: "update"; versionstamp: string; previousOwner: number }
  | { kind: "skip"; reason: string };

/** A planned user or share. */
export interface Planned<T, A> {
  item: T;
  action: A;
}

const SAME_USER_FIELDS = [
  "username",
  "passwordHash",
  "scope",
  "locale",
  "lockPassword",
  "viewMode",
  "singleClick",
  "redirectAfterCopyMove",
  "perm",
  "commands",
  "sorting",
  "rules",
  "hideDotfiles",
  "dateFormat",
  "aceEditorTheme",
] as const;

function sameUser(a: StoredUser, b: StoredUser): boolean {
  return SAME_USER_FIELDS.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

function sameShare(a: StoredShare, b: StoredShare): boolean {
  return a.userID === b.userID && a.path === b.path && a.expire === b.expire &&
    a.passwordHash === b.passwordHash && a.token === b.token;
}

function derivedScope(u: StoredUser, settings: Settings, snap: Snapshot, claimed: Set<string>) {
  if (!settings.createUserDir) return undefined;
  let derived: string;
  try {
    derived = homeScope(settings, u.username);
  } catch {
    return undefined;
  }
  const key = derived.toLowerCase();
  if (derived !== u.scope || snap.scopes.has(key) || claimed.has(key)) return undefined;
  claimed.add(key);
  return derived;
}

/** Why a username cannot be used here (what signup or the user editor would answer), or null. */
export function usernameProblem(name: string): string | null {
  try {
    // An NFC-only difference is no problem: the importer stores the NFC form (lib/import/mod.ts).
    normalizeUsername(name);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Plans the users: `replace` turns conflicts into updates or replacements. */
export function planUsers(
  decoded: DecodedUser[],
  snap: Snapshot,
  settings: Settings,
  replace: boolean,
): Planned<DecodedUser, UserAction>[] {
  const claimed = new Set<string>();
  const seen = new Map<string, number>();
  return decoded.map((d) => {
    const u = d.user;
    const broken = usernameProblem(u.username);
    if (broken !== null) {
      return {
        item: d,
        action: { kind: "skip", reason: `its username breaks the username rules: ${broken}`, final: true },
      };
    }
    const folded = foldName(u.username);
    const twin = seen.get(folded);
    if (twin !== undefined) {
      return { item: d, action: { kind: "skip", reason: `same name as user ${twin} of the file` } };
    }
    seen.set(folded, u.id);
    const byId = snap.users.get(u.id);
    const byName = snap.names.get(folded);
    if (!byId && !byName) {
      return { item: d, action: { kind: "create", derivedScope: derivedScope(u, settings, snap, claimed) } };
    }
    if (byId && byName && byName.id === u.id) {
      if (sameUser(byId.value, u)) return { item: d, action: { kind: "unchanged" } };
      if (!replace) {
        return {
          item: d,
          action: { kind: "skip", reason: `user ${u.id} "${byId.value.username}" exists with other data` },
        };
      }
      return {
        item: d,
        action: {
          kind: "update",
          record: byId.versionstamp,
          name: byName.versionstamp,
          epoch: byId.value.sessionEpoch ?? 0,
        },
      };
    }
    const holders = [byId?.value.id, byName?.id].filter((x): x is number => x !== undefined);
    const who = holders.map((id) => `${id} "${snap.users.get(id)?.value.username ?? "?"}"`).join(" and ");
    if (!replace) return { item: d, action: { kind: "skip", reason: `conflicts with existing user ${who}` } };
    return {
      item: d,
      action: {
        kind: "replace",
        remove: [...new Set(holders)],
        derivedScope: derivedScope(u, settings, snap, claimed),
      },
    };
  });
}

/** Plans the shares, given the planned users (a share follows its owner: no owner imported, no share). */
export function planShares(
  decoded: DecodedShare[],
  users: Planned<DecodedUser, UserAction>[],
  snap: Snapshot,
  replace: boolean,
  now: number,
): Planned<DecodedShare, ShareAction>[] {
  const owners = new Map(users.map((p) => [p.item.user.id, p]));
  return decoded.map((d) => {
    const s = d.share;
    const skip = (reason: string) => ({ item: d, action: { kind: "skip", reason } as ShareAction });
    if (s.expire !== 0 && s.expire * 1000 <= now) {
      return skip(`expired on ${new Date(s.expire * 1000).toISOString().slice(0, 10)}`);
    }
    const owner = owners.get(s.userID);
    if (!owner) return skip(`its owner, user ${s.userID}, is not in the file`);
    if (owner.action.kind === "skip") {
      return skip(`its owner ${JSON.stringify(owner.item.user.username)} is not imported`);
    }
    const existing = snap.shares.get(s.hash);
    if (!existing) return { item: d, action: { kind: "create" } };
    if (sameShare(existing.value, s)) return { item: d, action: { kind: "unchanged" } };
    if (!replace) return skip("the hash is used by another share here");
    return {
      item: d,
      action: { kind: "update", versionstamp: existing.versionstamp, previousOwner: existing.value.userID },
    };
  });
}
