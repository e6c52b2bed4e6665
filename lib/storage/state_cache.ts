/**
 * In-memory copies of the settings, users and sessions that every request needs, so a warm request reads no KV.
 *
 * Staleness is bounded three ways (see lib/storage/changes.ts):
 * - a write in this process through lib/storage clears the copies before the writer goes on;
 * - a write by another instance on the same KV bumps the state generation, which a `kv.watch` sees at once;
 * - a write by another process on the same KV file (which a watch on a local database does not report) is seen
 *   within `recheckMs`: the generation is re-read at most that often, one KV read for all requests meanwhile.
 * A read that raced with a write is not stored, so a revoked session can never come back from a late read.
 */
import type { Settings, StoredUser } from "../types.ts";
import { normalizeSettings } from "../settings.ts";
import { keys } from "./keys.ts";
import { onStateWrite } from "./changes.ts";
import { findSession, type Session } from "./sessions.ts";
import { findUser } from "./users.ts";

/** Options of StateCache. */
export interface StateCacheOptions {
  /** Clock in milliseconds. */
  now?: () => number;
  /** Longest time a write by another process may go unseen (default 1000 ms). */
  recheckMs?: number;
  /** Sessions kept at most (default 10,000); the oldest are dropped first. */
  maxSessions?: number;
}

/** Settings, users and sessions read through memory; close() on shutdown (it stops the KV watch). */
export class StateCache {
  readonly #kv: Deno.Kv;
  readonly #now: () => number;
  readonly #recheckMs: number;
  readonly #maxSessions: number;
  #settings: Promise<Settings> | null = null;
  readonly #users = new Map<number, StoredUser>();
  readonly #sessions = new Map<string, Session>();
  /** Bumped by every clear: a read started before a clear must not store its (maybe stale) result. */
  #epoch = 0;
  #generation: string | null | undefined = undefined;
  #checkedAt = -Infinity;
  #checking: Promise<void> | null = null;
  #watch: ReadableStreamDefaultReader<Deno.KvEntryMaybe<unknown>[]> | null = null;
  #watching: Promise<void> | null = null;
  readonly #unsubscribe: () => void;
  #closed = false;

  constructor(kv: Deno.Kv, options: StateCacheOptions = {}) {
    this.#kv = kv;
    this.#now = options.now ?? Date.now;
    this.#recheckMs = options.recheckMs ?? 1000;
    this.#maxSessions = options.maxSessions ?? 10_000;
    this.#unsubscribe = onStateWrite(kv, () => this.clear());
  }

  /** Drops every copy. */
  clear(): void {
    this.#epoch++;
    this.#settings = null;
    this.#users.clear();
    this.#sessions.clear();
  }

  /** The normalised settings. */
  async settings(): Promise<Settings> {
    await this.#fresh();
    if (this.#settings) return await this.#settings;
    const epoch = this.#epoch;
    const read = this.#kv.get<Settings>(keys.settings()).then((e) => normalizeSettings(e.value));
    if (epoch === this.#epoch) this.#settings = read;
    read.catch(() => {
      if (this.#settings === read) this.#settings = null;
    });
    return await read;
  }

  /** Finds a user by id (a missing user is not remembered: it may be created later). */
  async findUser(id: number): Promise<StoredUser | null> {
    await this.#fresh();
    const hit = this.#users.get(id);
    if (hit) return structuredClone(hit);
    const epoch = this.#epoch;
    const user = await findUser(this.#kv, id);
    if (user && epoch === this.#epoch) this.#users.set(id, structuredClone(user));
    return user;
  }

  /** Finds a live session (expiry is checked on every read). */
  async findSession(id: string, now: number): Promise<Session | null> {
    await this.#fresh();
    const hit = this.#sessions.get(id);
    if (hit) return hit.expires > now ? { ...hit } : null;
    const epoch = this.#epoch;
    const session = await findSession(this.#kv, id, now);
    if (session && epoch === this.#epoch) {
      if (this.#sessions.size >= this.#maxSessions) {
        this.#sessions.delete(this.#sessions.keys().next().value!);
      }
      this.#sessions.set(id, { ...session });
    }
    return session;
  }

  /** Stops the watch and the local write listener. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe();
    await this.#watch?.cancel().catch(() => {});
    await this.#watching;
    this.clear();
  }

  /** Starts the watch on first use; re-reads the generation when the last look is older than recheckMs. */
  async #fresh(): Promise<void> {
    if (this.#closed) return;
    if (!this.#watch) this.#startWatch();
    if (this.#now() - this.#checkedAt < this.#recheckMs) return;
    this.#checking ??= this.#kv.get(keys.stateGeneration()).then((e) => {
      this.#checkedAt = this.#now();
      this.#seen(e.versionstamp);
    }).finally(() => this.#checking = null);
    await this.#checking;
  }

  #seen(versionstamp: string | null): void {
    if (this.#generation !== undefined && versionstamp !== this.#generation) this.clear();
    this.#generation = versionstamp;
  }

  #startWatch(): void {
    const reader = this.#kv.watch([keys.stateGeneration()]).getReader();
    this.#watch = reader;
    this.#watching = (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          this.#seen(value[0].versionstamp);
        }
      } catch {
        // KV closed under the watch: the periodic re-read (or nothing, at shutdown) takes over.
      }
    })();
  }
}

/** The normalised settings, from the cache when there is one. */
export async function cachedSettings(
  deps: { cache?: StateCache; store: { findSettings(): Promise<Settings | null> } },
): Promise<Settings> {
  return deps.cache ? await deps.cache.settings() : normalizeSettings(await deps.store.findSettings());
}
