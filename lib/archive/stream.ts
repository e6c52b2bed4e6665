/** Turning the writers' async generators into pull-driven ReadableStreams. */
import { log } from "../log.ts";

/** Output chunks are merged up to this size, so small headers do not become tiny writes. */
export const CHUNK_TARGET = 64 * 1024;

/**
 * Merges small chunks into blocks of `target` bytes. A chunk of `target` bytes or more passes
 * through without a copy (after what was pending). Small chunks are always copied, so the
 * writers may yield views of shared buffers.
 */
export async function* coalesce(
  source: AsyncIterable<Uint8Array>,
  target: number = CHUNK_TARGET,
): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  let buffer = new Uint8Array(target);
  let fill = 0;
  for await (const chunk of source) {
    if (chunk.length >= target) {
      if (fill > 0) {
        yield buffer.subarray(0, fill);
        buffer = new Uint8Array(target);
        fill = 0;
      }
      yield chunk as Uint8Array<ArrayBuffer>;
      continue;
    }
    if (fill + chunk.length > target) {
      yield buffer.subarray(0, fill);
      buffer = new Uint8Array(target);
      fill = 0;
    }
    buffer.set(chunk, fill);
    fill += chunk.length;
  }
  if (fill > 0) yield buffer.subarray(0, fill);
}

/**
 * A ReadableStream that pulls one chunk from the generator per read. Cancelling the stream or
 * aborting the signal ends the generator, whose `finally` blocks close open files.
 */
export function streamFromGenerator(
  generator: AsyncGenerator<Uint8Array<ArrayBuffer>>,
  options: { signal?: AbortSignal } = {},
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const { signal } = options;
  let onAbort: (() => void) | undefined;
  const stop = () => {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    // return() waits for a pending next() to settle, then runs the generator's finally blocks.
    generator.return(undefined).catch((err) => log.debug("archive: generator cleanup failed", err));
  };
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      if (!signal) return;
      onAbort = () => {
        controller.error(signal.reason);
        stop();
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    },
    async pull(controller) {
      try {
        const { done, value } = await generator.next();
        if (signal?.aborted) return;
        if (done) {
          if (onAbort) signal?.removeEventListener("abort", onAbort);
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (err) {
        if (onAbort) signal?.removeEventListener("abort", onAbort);
        if (!signal?.aborted) controller.error(err);
      }
    },
    cancel() {
      stop();
    },
  });
}
