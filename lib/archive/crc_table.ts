/**
 * Table-driven CRCs in plain JavaScript (slicing-by-8), without node:zlib: loading it costs several MiB, so code
 * that needs only a CRC here and there (extraction) imports this module; lib/archive/crc.ts adds the native one.
 */

/** A running CRC: pass the previous value (0 to start) and the next bytes. */
export type CrcFunction = (previous: number, data: Uint8Array) => number;

/** Builds a slicing-by-8 CRC function for a reflected polynomial (8 tables of 256 entries). */
export function createCrc(polynomial: number): CrcFunction {
  const t = new Int32Array(256 * 8);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let j = 0; j < 8; j++) c = c & 1 ? (c >>> 1) ^ polynomial : c >>> 1;
    t[i] = c;
  }
  for (let i = 0; i < 256; i++) {
    for (let k = 1; k < 8; k++) {
      const prev = t[(k - 1) * 256 + i];
      t[k * 256 + i] = (prev >>> 8) ^ t[prev & 0xff];
    }
  }
  return function crc(previous: number, b: Uint8Array): number {
    let c = ~previous;
    let i = 0;
    const n = b.length;
    // Eight bytes per step: the first four are folded into the running value, the next four
    // are looked up directly; each table k advances a byte by k positions.
    for (; i + 8 <= n; i += 8) {
      const a = c ^ (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24));
      c = t[1792 + (a & 0xff)] ^ t[1536 + ((a >>> 8) & 0xff)] ^ t[1280 + ((a >>> 16) & 0xff)] ^
        t[1024 + (a >>> 24)] ^ t[768 + b[i + 4]] ^ t[512 + b[i + 5]] ^ t[256 + b[i + 6]] ^ t[b[i + 7]];
    }
    for (; i < n; i++) c = t[(c ^ b[i]) & 0xff] ^ (c >>> 8);
    return ~c >>> 0;
  };
}

/** CRC-32 (IEEE) in JavaScript; about 1.4 GiB/s on the reference machine. */
export const crc32Js: CrcFunction = createCrc(0xedb88320);
