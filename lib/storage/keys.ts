/**
 * The Deno KV key layout, in one place. Every key the app writes is built here.
 *
 * | key                                         | value                                  |
 * |---------------------------------------------|----------------------------------------|
 * | ["meta", "version"]                         | number: schema version                 |
 * | ["meta", "secret"]                          | Uint8Array(64): JWT signing key        |
 * | ["meta", "state_generation"]              | Deno.KvU64: bumped by every write of settings, users, sessions |
 * | ["meta", "filebrowser_import"]             | ImportRecord: the last filebrowser import |
 * | ["settings"]                                | Settings (wire shape, docs/api.md)     |
 * | ["counters", "user_id"]                     | Deno.KvU64: last user id               |
 * | ["users", "by_id", id]                      | StoredUser                             |
 * | ["users", "by_name", folded username]       | number: user id (unique index)         |
 * | ["users", "by_scope", folded derived scope] | number: user id (derived home dirs)    |
 * | ["shares", "by_hash", hash]                 | StoredShare                            |
 * | ["shares", "by_user", userId, hash]         | true (secondary index)                 |
 * | ["sessions", sessionId]                     | Session (expires with the token)       |
 * | ["sessions_by_user", userId, sessionId]     | true (to revoke every session of a user) |
 * | ["uploads", "by_target", sha256(real path)] | UploadRecord (lib/upload/store.ts)     |
 * | ["uploads", "lock", sha256(real path)]      | lease of an UploadLock (lib/upload/lock.ts): 10 s |
 * | ["uploads", "drop", sha256(real path)]      | {hash, id}: the drop link and visitor upload id holding the name (expiring; a bare hash before ids) |
 * | ["uploads", "drop_id", hash, id]            | {name, targetKey}: where a visitor's upload id leads (lib/drop.ts, expiring) |
 * | ["throttle", scope, "client", client]       | {n, until}: attempts of a client (expiring) |
 * | ["throttle", scope, "pair", client, subject]| {n, until}: attempts on one user/share (expiring) |
 * | ["throttle", scope, "subject", subject]     | {n, until}: attempts on one account from anyone (expiring) |
 * | ["publish", "schedules", id]                | PublishSchedule (id: hash of the post's real path) |
 * | ["publish", "logs", id]                     | BuildLog of the schedule's last build  |
 * | ["webdav", "props", ...real segs, true, prop] | {xml, userId, bytes}: a WebDAV dead property (a bare XML string before owners were kept) |
 * | ["webdav", "prop_usage", userId]            | number: bytes of dead properties the user set (lib/webdav/dead_prop_usage.ts) |
 * | ["webdav", "prop_total"]                    | number: bytes of all dead properties   |
 * | ["webdav", "prop_epoch"]                    | number: bumped by every dead property change (serialises them) |
 * | ["webdav", "locks", token]                  | DavLock (lib/webdav/locks.ts, expiring) |
 * | ["webdav", "lock_paths", ...real segs, true, token] | true: locks by real path (expiring) |
 * | ["webdav", "lock_users", userId, token]     | true: locks by holder (expiring; their count is capped) |
 * | ["webdav", "lock_epoch"]                    | number: bumped by every lock change (serialises them) |
 * | ["twofa", userId]                           | TwoFactorRecord: TOTP secret, last step, recovery hashes |
 * | ["app_passwords", userId, id]               | StoredAppPassword: name, SHA-256 of the secret, dates |
 * | ["trash", "by_user", userId, id]            | TrashRecord: a deleted item (lib/trash/store.ts) |
 * | ["audit", time, id]                         | AuditEntry (lib/audit/mod.ts), kept `--audit-days` |
 * | ["quota", sha256(scope dir), "epoch"]       | Deno.KvU64: usage generation of the scope; its versionstamp versions the holds |
 * | ["quota", sha256(scope dir), "lease", id]   | QuotaHoldRecord (lib/upload/quota_ledger.ts): bytes, instance, until (expiring) |
 *
 * Secondary indexes are written in the same `kv.atomic()` as their record, guarded with
 * `.check({ key, versionstamp: null })` so two writers can never both claim a name.
 */

/**
 * Longest string (UTF-8 bytes) used as a key part. KV refuses keys over 2 KiB with a TypeError, so lookups by a
 * client-supplied name or hash check this first and treat a longer one as missing.
 */
export const MAX_KEY_PART_BYTES = 1024;

/** True when `part` is short enough to be a key part (see {@link MAX_KEY_PART_BYTES}). */
export function fitsKeyPart(part: string): boolean {
  return part.length <= MAX_KEY_PART_BYTES && new TextEncoder().encode(part).length <= MAX_KEY_PART_BYTES;
}

/** Key builders. */
export const keys = {
  version: () => ["meta", "version"] as const,
  secret: () => ["meta", "secret"] as const,
  stateGeneration: () => ["meta", "state_generation"] as const,
  filebrowserImport: () => ["meta", "filebrowser_import"] as const,
  settings: () => ["settings"] as const,
  userIdCounter: () => ["counters", "user_id"] as const,
  user: (id: number) => ["users", "by_id", id] as const,
  usersPrefix: () => ["users", "by_id"] as const,
  userByName: (username: string) => ["users", "by_name", foldName(username)] as const,
  usersByNamePrefix: () => ["users", "by_name"] as const,
  usersByScopePrefix: () => ["users", "by_scope"] as const,
  userByScope: (scope: string) => ["users", "by_scope", scope.toLowerCase()] as const,
  share: (hash: string) => ["shares", "by_hash", hash] as const,
  sharesPrefix: () => ["shares", "by_hash"] as const,
  shareByUser: (userId: number, hash: string) => ["shares", "by_user", userId, hash] as const,
  sharesByUserPrefix: (userId: number) => ["shares", "by_user", userId] as const,
  session: (id: string) => ["sessions", id] as const,
  sessionByUser: (userId: number, id: string) => ["sessions_by_user", userId, id] as const,
  sessionsByUserPrefix: (userId: number) => ["sessions_by_user", userId] as const,
  uploadRecord: (targetKey: string) => ["uploads", "by_target", targetKey] as const,
  uploadRecordsPrefix: () => ["uploads", "by_target"] as const,
  uploadLock: (targetKey: string) => ["uploads", "lock", targetKey] as const,
  dropUpload: (targetKey: string) => ["uploads", "drop", targetKey] as const,
  dropUploadId: (hash: string, id: string) => ["uploads", "drop_id", hash, id] as const,
  throttleClient: (scope: string, client: string) => ["throttle", scope, "client", client] as const,
  throttlePair: (scope: string, client: string, subject: string) =>
    ["throttle", scope, "pair", client, subject] as const,
  throttleSubject: (scope: string, subject: string) => ["throttle", scope, "subject", subject] as const,
  publishSchedule: (id: string) => ["publish", "schedules", id] as const,
  publishSchedulesPrefix: () => ["publish", "schedules"] as const,
  publishLog: (id: string) => ["publish", "logs", id] as const,
  // Real paths are split into key parts so that a prefix lists a whole subtree; `true` ends the path.
  davProp: (segs: readonly string[], prop: string) => ["webdav", "props", ...segs, true, prop],
  davPropsPrefix: (segs: readonly string[], exact = false) =>
    exact ? ["webdav", "props", ...segs, true] : ["webdav", "props", ...segs],
  davPropUsage: (userId: number) => ["webdav", "prop_usage", userId] as const,
  davPropTotal: () => ["webdav", "prop_total"] as const,
  davPropEpoch: () => ["webdav", "prop_epoch"] as const,
  davLock: (token: string) => ["webdav", "locks", token] as const,
  davLocksPrefix: () => ["webdav", "locks"] as const,
  davLockPath: (segs: readonly string[], token: string) => ["webdav", "lock_paths", ...segs, true, token],
  davLockPathsPrefix: (segs: readonly string[], exact = false) =>
    exact ? ["webdav", "lock_paths", ...segs, true] : ["webdav", "lock_paths", ...segs],
  davUserLock: (userId: number, token: string) => ["webdav", "lock_users", userId, token] as const,
  davUserLocksPrefix: (userId: number) => ["webdav", "lock_users", userId] as const,
  davLockEpoch: () => ["webdav", "lock_epoch"] as const,
  twoFactor: (userId: number) => ["twofa", userId] as const,
  appPassword: (userId: number, id: string) => ["app_passwords", userId, id] as const,
  appPasswordsPrefix: (userId: number) => ["app_passwords", userId] as const,
  trashItem: (userId: number, id: string) => ["trash", "by_user", userId, id] as const,
  trashByUserPrefix: (userId: number) => ["trash", "by_user", userId] as const,
  trashPrefix: () => ["trash", "by_user"] as const,
  // Ordered by time, so newest first is a reverse listing and the retention sweep a range delete.
  auditEntry: (time: number, id: string) => ["audit", time, id] as const,
  auditPrefix: () => ["audit"] as const,
  /** Bound below every entry of `time` and later. */
  auditEntryBefore: (time: number) => ["audit", time] as const,
  /** Bound above every entry (booleans sort after numbers). */
  auditEnd: () => ["audit", true] as const,
  // "epoch" sorts before "lease": one listing of the scope reads the version before the holds it versions.
  quotaScopePrefix: (scopeId: string) => ["quota", scopeId] as const,
  quotaEpoch: (scopeId: string) => ["quota", scopeId, "epoch"] as const,
  quotaHold: (scopeId: string, holdId: string) => ["quota", scopeId, "lease", holdId] as const,
};

/** Case-folds a username for the uniqueness index. */
export function foldName(username: string): string {
  return username.normalize("NFC").toLowerCase();
}
