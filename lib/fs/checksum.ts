/** Streamed file checksums for `?checksum=` (docs/api.md#resources). */
import { openFile, pinTarget } from "./floor.ts";
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
  using f = await openPinned(file);
  const buf = new Uint8Array(256 * 1024);
  for (;;) {
    const n = await f.read(buf);
    if (n === null) break;
    hash.update(buf.subarray(0, n));
  }
  return hash.digest("hex");
}

/** Opens what a checked path leads to through the disk floor. */
async function openPinned(file: ScopedPath): Promise<Deno.FsFile> {
  using pin = pinTarget(file);
  return await openFile(pin);
}
