/** Storage facade over Deno KV: users, settings, shares, sessions. KV is opened once in main.ts and injected. */
import * as users from "./users.ts";
import * as sessions from "./sessions.ts";
import * as shares from "./shares.ts";
import { keys } from "./keys.ts";
import { bumpStateGeneration, notifyStateWrite } from "./changes.ts";
import type { Settings } from "../types.ts";

export { keys } from "./keys.ts";
export type { Session } from "./sessions.ts";
export type { StoredShare } from "./shares.ts";
export { sessions, shares, users };

/** Opens the KV store at a file path, a remote URL or ":memory:". */
export function openKv(path: string): Promise<Deno.Kv> {
  return Deno.openKv(path);
}

/** A thin handle on KV shared by the app. */
export class Store {
  readonly kv: Deno.Kv;
  /** The signing key never changes once written: read it once. */
  #secret: Uint8Array | null = null;

  constructor(kv: Deno.Kv) {
    this.kv = kv;
  }

  /** Reads the settings record, or null before the first start. */
  async findSettings(): Promise<Settings | null> {
    return (await this.kv.get<Settings>(keys.settings())).value;
  }

  /** Writes the settings record. */
  async saveSettings(settings: Settings): Promise<void> {
    await bumpStateGeneration(this.kv.atomic()).set(keys.settings(), settings).commit();
    notifyStateWrite(this.kv);
  }

  /** Returns the JWT signing key, creating it once (atomically) if absent. */
  async getSecret(): Promise<Uint8Array> {
    if (this.#secret) return this.#secret;
    const existing = await this.kv.get<Uint8Array>(keys.secret());
    if (existing.value) return this.#secret = existing.value;
    const fresh = crypto.getRandomValues(new Uint8Array(64));
    await this.kv.atomic().check({ key: keys.secret(), versionstamp: null }).set(keys.secret(), fresh)
      .commit();
    return this.#secret = (await this.kv.get<Uint8Array>(keys.secret())).value!;
  }
}
