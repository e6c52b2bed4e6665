/**
 * Password hashing and the password policy. bcrypt, so accounts imported from filebrowser keep working; hashing runs
 * on the native thread pool of @node-rs/bcrypt (never on the event loop), at most HASH_CONCURRENCY at a time.
 */
import { BadRequestError } from "../errors.ts";
import { Semaphore } from "../semaphore.ts";
import { passwordLengthProblem } from "../password_rules.ts";

type Bcrypt = typeof import("@node-rs/bcrypt");

// A native addon: load it with the first password check, not at server start.
let bcryptModule: Promise<Bcrypt> | null = null;
function loadBcrypt(): Promise<Bcrypt> {
  bcryptModule ??= import("@node-rs/bcrypt");
  return bcryptModule;
}

/** bcrypt cost, as upstream. */
export const BCRYPT_COST = 10;

/**
 * Hashes running at once. Each one keeps a core busy for ~50 ms; leaving one core to the event loop keeps every other
 * request (and /health) fast while a burst of logins queues here.
 */
export const HASH_CONCURRENCY = Math.max(1, (navigator.hardwareConcurrency || 2) - 1);
const slots = new Semaphore(HASH_CONCURRENCY);

// A valid hash of a random string: verifying against it costs the same as against a real hash, so a login for an
// unknown user takes as long as one for a known user.
const DUMMY_HASH = "$2a$10$CwTycUXWue0Thq9StjUM0uJ8.WnM8Q0Uu0pY3RQhV5mJy1n0bF7Ve";

const COMMON_PASSWORDS = new Set([
  "123456789012",
  "1234567890123",
  "12345678901234",
  "123456123456",
  "password1234",
  "password12345",
  "passwordpassword",
  "qwertyuiopas",
  "qwertyuiop123",
  "qwerty123456",
  "111111111111",
  "000000000000",
  "123123123123",
  "abcdefghijkl",
  "iloveyou1234",
  "administrator",
  "adminadmin123",
  "letmein12345",
  "welcome12345",
  "changeme1234",
  "1q2w3e4r5t6y",
  "1qaz2wsx3edc",
  "zaq12wsxcde3",
  "aaaaaaaaaaaa",
  "football1234",
  "baseball1234",
  "superman1234",
  "trustno1trustno1",
  "monkey123456",
  "dragon123456",
  "sunshine1234",
  "princess1234",
  "qwertyqwerty",
  "asdfghjkl123",
  "zxcvbnm12345",
  "passw0rd1234",
  "p@ssw0rd1234",
  "Password1234",
  "Password123!",
  "Welcome12345",
  "filebrowser123",
  "filebrowser1",
]);

/** Hashes a password with bcrypt cost 10, written as `$2a$` like upstream. */
export async function hashPassword(password: string): Promise<string> {
  const bcrypt = await loadBcrypt();
  const hash = await slots.run(() => bcrypt.hash(password, BCRYPT_COST));
  // The addon writes `$2y$`; for passwords of at most 72 bytes `$2a$`, `$2b$` and `$2y$` are the same algorithm.
  return hash.replace(/^\$2[aby]\$/, "$$2a$$");
}

/** Compares a password with a hash; with a null (or unreadable) hash it still spends the same time and returns false. */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  const bcrypt = await loadBcrypt();
  const ok = await slots.run(() => bcrypt.verify(password, hash || DUMMY_HASH)).catch(() => false);
  return hash ? ok : false;
}

/** Throws BadRequestError when a password breaks the policy (docs/api.md#signup). */
export function checkPasswordPolicy(password: string, minLength: number): void {
  const problem = passwordLengthProblem(password, minLength);
  if (problem === "too_short") {
    throw new BadRequestError(`password is too short, minimum length is ${minLength}`, {
      code: "password_too_short",
    });
  }
  if (problem === "too_long") {
    throw new BadRequestError("bcrypt: password length exceeds 72 bytes", { code: "password_too_long" });
  }
  if (COMMON_PASSWORDS.has(password) || /^(.)\1+$/.test(password)) {
    throw new BadRequestError("password is too easy", { code: "password_too_easy" });
  }
}

/** A random URL-safe password of `bytes` random bytes. */
export function randomPassword(bytes = 12): string {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
