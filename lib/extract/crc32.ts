/**
 * CRC-32 (IEEE, reflected; zip and gzip) with one 256-entry table, some hundreds of MB/s: enough to check
 * what extraction writes to disk. lib/archive/crc.ts is faster through node:zlib, but loading node:zlib costs
 * every extraction several MiB of memory.
 */

const TABLE = new Int32Array(256);
for (let i = 0; i < 256; i++) {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  TABLE[i] = c;
}

/** Continues the CRC-32 `previous` (0 to start) over `bytes`. */
export function crc32(previous: number, bytes: Uint8Array): number {
  let c = ~previous;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
