/**
 * Snappy framing format (framing_format.txt): a stream identifier, then chunks of at most 64 KiB
 * of input, each with the masked CRC-32C of its uncompressed bytes. npm snappy compresses the blocks.
 */
import { crc32c } from "./crc.ts";

type SnappyModule = typeof import("snappy");

/** Largest uncompressed chunk the framing format allows. */
const CHUNK_SIZE = 64 * 1024;
const STREAM_IDENTIFIER = new Uint8Array([0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]);
const TYPE_COMPRESSED = 0x00;
const TYPE_UNCOMPRESSED = 0x01;

let modulePromise: Promise<SnappyModule> | undefined;

/** Loads the native addon lazily, so a platform without it only loses this one format. */
export function loadSnappy(): Promise<SnappyModule> {
  modulePromise ??= import("snappy");
  return modulePromise;
}

/** The CRC as stored in a chunk: rotated right by 15 bits plus a constant. */
export function maskCrc(crc: number): number {
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0;
}

function encodeChunk(snappy: SnappyModule, data: Uint8Array): Uint8Array<ArrayBuffer> {
  // copyOutputData: a V8-owned result, so the GC sees its size (an external buffer lets RSS grow).
  const compressed = snappy.compressSync(data, { copyOutputData: true });
  const stored = compressed.length >= data.length;
  const body = stored ? data : compressed;
  const out = new Uint8Array(8 + body.length);
  const view = new DataView(out.buffer);
  // 1 type byte, 3 length bytes (little endian, counting the CRC), then the masked CRC.
  view.setUint32(0, ((body.length + 4) << 8) | (stored ? TYPE_UNCOMPRESSED : TYPE_COMPRESSED), true);
  view.setUint32(4, maskCrc(crc32c(0, data)), true);
  out.set(body, 8);
  return out;
}

/** A TransformStream that writes the snappy framed format (`.sz`) of the bytes passing through. */
export function snappyFrameStream(): TransformStream<Uint8Array, Uint8Array<ArrayBuffer>> {
  let snappy: SnappyModule;
  const chunk = new Uint8Array(CHUNK_SIZE);
  let fill = 0;
  return new TransformStream({
    async start(controller) {
      snappy = await loadSnappy();
      controller.enqueue(STREAM_IDENTIFIER.slice());
    },
    transform(input, controller) {
      let at = 0;
      while (at < input.length) {
        const n = Math.min(CHUNK_SIZE - fill, input.length - at);
        chunk.set(input.subarray(at, at + n), fill);
        fill += n;
        at += n;
        if (fill === CHUNK_SIZE) {
          controller.enqueue(encodeChunk(snappy, chunk));
          fill = 0;
        }
      }
    },
    flush(controller) {
      if (fill > 0) controller.enqueue(encodeChunk(snappy, chunk.subarray(0, fill)));
    },
  });
}
