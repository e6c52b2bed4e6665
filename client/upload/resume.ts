// This module is browser-compatible.
/** Interrupted uploads: tus records left in localStorage by an upload that a reload or a closed tab cut short. */

/** Prefix of the tus records (`tus::<fingerprint>::<n>`, see client/upload/tus.ts). */
export const RECORD_PREFIX = "tus::";

/** The number of upload records in `storage` (each a half-done upload that picking the same file resumes). */
export function countInterrupted(storage: Pick<Storage, "key" | "length">): number {
  let n = 0;
  for (let i = 0; i < storage.length; i++) if (storage.key(i)?.startsWith(RECORD_PREFIX)) n++;
  return n;
}
