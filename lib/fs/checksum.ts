/** Streamed file checksums for `?checksum=` (docs/api.md#resources). */
import { BadRequestError } from "../errors.ts";
import type { ScopedPath } from "./gate.ts";

/** The accepted algorithm names. */
const CHECKSUM_ALGORITHMS = ["md5", "sha1", "sha256", "sha512"] as const;

/** One of {@link CHECKSUM_ALGORITHMS}. */
export type ChecksumAlgorithm = typeof CHECKSUM_ALGORITHMS[number];

/** Validates a `checksum` query value (400 without a message for anything else, like upstream). */
export function parseChecksumAlgorithm(value: string): ChecksumAlgorithm {
  if ((CHECKSUM_ALGORITHMS as readonly string[]).includes(value)) return value as ChecksumAlgorithm;
  throw new BadRequestError(undefined, { code: "invalid_checksum_algorithm" });
}

/** Hashes a file by streaming it; returns lowercase hex. */
export async function checksumFile(file: ScopedPath, algorithm: ChecksumAlgorithm): Promise<string> {
  // node:crypto is heavy to load in Deno; only checksum requests need it.
  const { createHash } = await import("node:crypto");
  const hash = createHash(algorithm);
  // The caller saw a regular file; a FIFO swapped in since would block the open (and a thread) until a
  // writer comes, so look again right before it (a narrow window remains, as for archive entries).
  if (!(await Deno.lstat(file.real)).isFile) {
    throw new BadRequestError("not a regular file", { code: "not_a_regular_file" });
  }
  using f = await Deno.open(file.real, { read: true });
  const buf = new Uint8Array(256 * 1024);
  for (;;) {
    const n = await f.read(buf);
    if (n === null) break;
    hash.update(buf.subarray(0, n));
  }
  return hash.digest("hex");
}
