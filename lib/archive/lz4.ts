/** LZ4 frame format (lz4 v1.6.0+ spec) around lz4-napi's block compressor, streamed block by block. */
import { Buffer } from "node:buffer";

type Lz4Module = typeof import("lz4-napi");

/** Uncompressed bytes per block; 256 KiB is block size code 5 in the frame descriptor. */
const BLOCK_SIZE = 256 * 1024;
const BLOCK_SIZE_CODE = 5;
const MAGIC = 0x184d2204;
// FLG: version 01, independent blocks, no block or content checksums, no content size.
const FLG = 0b01_1_0_0_0_0_0;
const BD = BLOCK_SIZE_CODE << 4;
const UNCOMPRESSED_BIT = 0x80000000;

let modulePromise: Promise<Lz4Module> | undefined;

/** Loads the native addon lazily, so a platform without it only loses this one format. */
export function loadLz4(): Promise<Lz4Module> {
  modulePromise ??= import("lz4-napi");
  return modulePromise;
}

/** xxHash32 of a short input (under 16 bytes), as needed for the frame header checksum. */
export function xxh32Short(data: Uint8Array, seed = 0): number {
  const P1 = 2654435761, P2 = 2246822519, P3 = 3266489917, P4 = 668265263, P5 = 374761393;
  const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));
  let h = (seed + P5 + data.length) | 0;
  let i = 0;
  for (; i + 4 <= data.length; i += 4) {
    const word = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    h = Math.imul(rotl((h + Math.imul(word, P3)) | 0, 17), P4);
  }
  for (; i < data.length; i++) h = Math.imul(rotl((h + Math.imul(data[i], P5)) | 0, 11), P1);
  h = Math.imul(h ^ (h >>> 15), P2);
  h = Math.imul(h ^ (h >>> 13), P3);
  return (h ^ (h >>> 16)) >>> 0;
}

function frameHeader(): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(7);
  new DataView(out.buffer).setUint32(0, MAGIC, true);
  out[4] = FLG;
  out[5] = BD;
  out[6] = (xxh32Short(out.subarray(4, 6)) >>> 8) & 0xff;
  return out;
}

function encodeBlock(lz4: Lz4Module, data: Uint8Array): Uint8Array<ArrayBuffer> {
  // compressSync prepends the uncompressed size (4 bytes) to the raw block; the frame does not want it.
  const packed = lz4.compressSync(Buffer.from(data.buffer, data.byteOffset, data.length));
  const compressedLength = packed.length - 4;
  const stored = compressedLength >= data.length;
  const out = new Uint8Array(4 + (stored ? data.length : compressedLength));
  new DataView(out.buffer).setUint32(
    0,
    stored ? (data.length | UNCOMPRESSED_BIT) >>> 0 : compressedLength,
    true,
  );
  out.set(stored ? data : packed.subarray(4), 4);
  return out;
}

/** A TransformStream that writes one LZ4 frame of the bytes passing through. */
export function lz4FrameStream(): TransformStream<Uint8Array, Uint8Array<ArrayBuffer>> {
  let lz4: Lz4Module;
  const block = new Uint8Array(BLOCK_SIZE);
  let fill = 0;
  return new TransformStream({
    async start(controller) {
      lz4 = await loadLz4();
      controller.enqueue(frameHeader());
    },
    transform(chunk, controller) {
      let at = 0;
      while (at < chunk.length) {
        const n = Math.min(BLOCK_SIZE - fill, chunk.length - at);
        block.set(chunk.subarray(at, at + n), fill);
        fill += n;
        at += n;
        if (fill === BLOCK_SIZE) {
          controller.enqueue(encodeBlock(lz4, block));
          fill = 0;
        }
      }
    },
    flush(controller) {
      if (fill > 0) controller.enqueue(encodeBlock(lz4, block.subarray(0, fill)));
      controller.enqueue(new Uint8Array(4)); // end mark
    },
  });
}
