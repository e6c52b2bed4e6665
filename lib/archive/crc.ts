/** CRC-32 (zip, gzip) and CRC-32C (snappy framing), fast on Uint8Array. */
import zlib from "node:zlib";
import { crc32Js, type CrcFunction, createCrc } from "./crc_table.ts";

export { crc32Js, type CrcFunction, createCrc };

// node:zlib's crc32 is native and SIMD-accelerated (about 45 GiB/s here against 1.4 GiB/s for
// slicing-by-8 in JS), so it is preferred when the runtime has it.
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** CRC-32 (IEEE), as used by zip and gzip. */
export const crc32: CrcFunction = typeof nativeCrc32 === "function"
  ? (previous, data) => nativeCrc32(data, previous)
  : crc32Js;

/** CRC-32C (Castagnoli), as used by the snappy framing format. */
export const crc32c: CrcFunction = createCrc(0x82f63b78);
