/** Users in Deno KV, with a unique case-folded username index and a unique derived-scope index. */
import { BadRequestError, ConflictError, KvCommitError, NotFoundError } from "../errors.ts";
import type { StoredUser } from "../types.ts";
import { bumpStateGeneration, notifyStateWrite } from "./changes.ts";
import { fitsKeyPart, foldName, keys, MAX_KEY_PART_BYTES } from "./keys.ts";

const MAX_RETRIES = 64;

/** Jittered backoff between optimistic-concurrency retries, so contending writers spread out. */
function backoff(attempt: number): Promise<void> {
  if (attempt === 0) return Promise.resolve();
  const ms = Math.random() * Math.min(50, 2 ** Math.min(attempt, 6));
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Options of createUser. */
export interface CreateUserOptions {
  /** When set, the scope is a derived home dir that must not belong to anyone else. */
  derivedScope?: string;
}

function assertNameFits(username: string): void {
  if (!fitsKeyPart(foldName(username))) {
    throw new BadRequestError(`username is longer than ${MAX_KEY_PART_BYTES} bytes`, {
      code: "username_too_long",
    });
  }
}

/** Finds a user by id. */
export async function findUser(kv: Deno.Kv, id: number): Promise<StoredUser | null> {
  return (await kv.get<StoredUser>(keys.user(id))).value;
}

/** Gets a user by id or throws NotFoundError. */
export async function getUser(kv: Deno.Kv, id: number): Promise<StoredUser> {
  const user = await findUser(kv, id);
  if (!user) throw new NotFoundError("user_not_found");
  return user;
}

/** Finds a user by username (index is case-folded; the stored name must match exactly, or after NFC). */
export async function findUserByName(
  kv: Deno.Kv,
  username: string,
  options: { exact?: boolean } = {},
): Promise<StoredUser | null> {
  // Login and proxy headers choose the name: one too long for a KV key names no user.
  if (!fitsKeyPart(foldName(username))) return null;
  const id = (await kv.get<number>(keys.userByName(username))).value;
  if (id === null) return null;
  const user = await findUser(kv, id);
  if (!user) return null;
  // New names are stored in NFC; a keyboard may send the decomposed form of the same name.
  const same = user.username === username || user.username === username.normalize("NFC");
  if (options.exact !== false && !same) return null;
  return user;
}

/** Lists all users sorted by id. */
export async function listUsers(kv: Deno.Kv): Promise<StoredUser[]> {
  const out: StoredUser[] = [];
  for await (const e of kv.list<StoredUser>({ prefix: keys.usersPrefix() })) out.push(e.value);
  return out.sort((a, b) => a.id - b.id);
}

/** Creates a user with the next id; throws ConflictError (username_taken / scope_taken) on a clash. */
export async function createUser(
  kv: Deno.Kv,
  data: Omit<StoredUser, "id">,
  options: CreateUserOptions = {},
): Promise<StoredUser> {
  for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
    await backoff(attempt);
    const counter = await kv.get<Deno.KvU64>(keys.userIdCounter());
    const id = Number(counter.value?.value ?? 0n) + 1;
    const user: StoredUser = { ...data, id };
    assertNameFits(user.username);
    const nameKey = keys.userByName(user.username);
    const existing = await kv.get(nameKey);
    if (existing.value !== null) {
      throw new ConflictError("username_taken", `Cannot create user "${user.username}": username taken`);
    }
    let op = bumpStateGeneration(kv.atomic())
      .check(counter)
      .check({ key: nameKey, versionstamp: null })
      .check({ key: keys.user(id), versionstamp: null })
      .set(keys.userIdCounter(), new Deno.KvU64(BigInt(id)))
      .set(keys.user(id), user)
      .set(nameKey, id);
    if (options.derivedScope !== undefined) {
      const scopeKey = keys.userByScope(options.derivedScope);
      const owner = await kv.get(scopeKey);
      if (owner.value !== null) {
        throw new ConflictError(
          "scope_taken",
          `Cannot create user "${user.username}": home directory already exists`,
        );
      }
      op = op.check({ key: scopeKey, versionstamp: null }).set(scopeKey, id);
    }
    const res = await op.commit();
    if (res.ok) {
      notifyStateWrite(kv);
      return user;
    }
  }
  throw new KvCommitError("createUser: too much contention");
}

/**
 * Read-modify-write of one user with optimistic concurrency: `fn` gets the current record and returns the new one.
 * Retries when another writer committed in between, so no update is ever lost.
 */
export async function mutateUser(
  kv: Deno.Kv,
  id: number,
  fn: (user: StoredUser) => StoredUser,
): Promise<StoredUser> {
  for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
    await backoff(attempt);
    const entry = await kv.get<StoredUser>(keys.user(id));
    if (!entry.value) throw new NotFoundError("user_not_found");
    const next = { ...fn(structuredClone(entry.value)), id };
    let op = bumpStateGeneration(kv.atomic()).check(entry).set(keys.user(id), next);
    if (foldName(next.username) !== foldName(entry.value.username)) {
      assertNameFits(next.username);
      const newKey = keys.userByName(next.username);
      if ((await kv.get(newKey)).value !== null) {
        throw new ConflictError("username_taken", `Cannot rename user to "${next.username}": username taken`);
      }
      op = op.check({ key: newKey, versionstamp: null }).delete(keys.userByName(entry.value.username)).set(
        newKey,
        id,
      );
    }
    const res = await op.commit();
    if (res.ok) {
      notifyStateWrite(kv);
      return next;
    }
  }
  throw new KvCommitError("mutateUser: too much contention");
}

/** What an imported user's writes expect to find: the versionstamps of the keys it replaces (null: absent). */
export interface PutUserExpect {
  record: string | null;
  name: string | null;
  /** A derived home dir to claim in the scope index (must be free). */
  derivedScope?: string;
}

/**
 * Adds to `op` the writes of a user with a fixed id (importing from filebrowser keeps ids): the record, its
 * name index and optionally the scope index, each guarded by `expect`, and raises the id counter to the id. After
 * the commit, the caller calls `notifyStateWrite(kv)` (lib/storage/changes.ts).
 */
export function putUserOps(
  op: Deno.AtomicOperation,
  user: StoredUser,
  expect: PutUserExpect,
): Deno.AtomicOperation {
  assertNameFits(user.username);
  const nameKey = keys.userByName(user.username);
  op = bumpStateGeneration(op).check({ key: keys.user(user.id), versionstamp: expect.record })
    .check({ key: nameKey, versionstamp: expect.name })
    .set(keys.user(user.id), user)
    .set(nameKey, user.id)
    .max(keys.userIdCounter(), BigInt(user.id));
  if (expect.derivedScope !== undefined) {
    const scopeKey = keys.userByScope(expect.derivedScope);
    op = op.check({ key: scopeKey, versionstamp: null }).set(scopeKey, user.id);
  }
  return op;
}

/** Deletes a user and its indexes. */
export async function deleteUser(kv: Deno.Kv, id: number): Promise<void> {
  const entry = await kv.get<StoredUser>(keys.user(id));
  if (!entry.value) throw new NotFoundError("user_not_found");
  let op = bumpStateGeneration(kv.atomic()).check(entry).delete(keys.user(id)).delete(
    keys.userByName(entry.value.username),
  );
  const scopeKey = keys.userByScope(entry.value.scope);
  const scopeOwner = await kv.get<number>(scopeKey);
  if (scopeOwner.value === id) op = op.delete(scopeKey);
  const res = await op.commit();
  if (!res.ok) throw new KvCommitError("deleteUser: concurrent change");
  notifyStateWrite(kv);
}
