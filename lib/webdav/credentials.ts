/**
 * WebDAV passwords verified recently, one store per app (`AppDeps.davCredentials`): a (username, password) pair is
 * kept as an HMAC under a key of this store, never as the password, tied to the stored password hash.
 */

/** How long a verified password is remembered. */
export const CREDENTIAL_TTL_MS = 5 * 60_000;
const MAX_REMEMBERED = 1000;

/** A verified password: whose, and against which stored hash. */
export interface RememberedCredential {
  userId: number;
  passwordHash: string;
  until: number;
}

/** Recently verified WebDAV credentials, bounded (expired ones first, then the oldest, make room). */
export class DavCredentials {
  readonly #remembered = new Map<string, RememberedCredential>();
  #key: Promise<CryptoKey> | null = null;

  /** The key a (username, password) pair is remembered under. */
  async fingerprint(username: string, password: string): Promise<string> {
    this.#key ??= crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]) as Promise<
      CryptoKey
    >;
    const data = new TextEncoder().encode(`${username}\0${password}`);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await this.#key, data));
    return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /** The credential remembered under `key` while still valid at `now`, else null. */
  find(key: string, now: number): RememberedCredential | null {
    const known = this.#remembered.get(key);
    return known && known.until > now ? known : null;
  }

  /** Remembers a verified credential until `value.until`. */
  remember(key: string, value: RememberedCredential, now: number): void {
    const remembered = this.#remembered;
    if (remembered.size >= MAX_REMEMBERED) {
      for (const [k, v] of remembered) if (v.until <= now) remembered.delete(k);
      // Still full: forget the oldest (insertion order).
      for (const k of remembered.keys()) {
        if (remembered.size < MAX_REMEMBERED) break;
        remembered.delete(k);
      }
    }
    remembered.set(key, value);
  }

  /** Forgets a credential (its user's password or two-factor state changed). */
  forget(key: string): void {
    this.#remembered.delete(key);
  }
}
