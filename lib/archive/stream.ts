/** Output batching for the writers, and turning their async generators into pull-driven ReadableStreams. */
import { log } from "../log.ts";
import { youngCollector } from "../young_gc.ts";

/** Output chunks are merged up to this size, so small headers do not become tiny writes. */
export const CHUNK_TARGET = 64 * 1024;
const MIN_RESERVE = 8 * 1024;

/**
 * Collects a writer's output. Small pieces are copied into blocks of CHUNK_TARGET bytes (so
 * writers may pass views of shared buffers); a piece of CHUNK_TARGET bytes or more is kept as
 * it is. Writers yield `take()` whenever `hasReady` is set: one generator step per ~64 KiB
 * instead of one per header.
 */
export class ChunkBuffer {
  #block = new Uint8Array(CHUNK_TARGET);
  #fill = 0;
  #ready: Uint8Array<ArrayBuffer>[] = [];

  /** Appends bytes to the output. */
  push(bytes: Uint8Array): void {
    if (bytes.length >= CHUNK_TARGET) {
      this.#finishBlock();
      this.#ready.push(bytes as Uint8Array<ArrayBuffer>);
      return;
    }
    if (this.#fill + bytes.length > CHUNK_TARGET) this.#finishBlock();
    this.#block.set(bytes, this.#fill);
    this.#fill += bytes.length;
    if (this.#fill === CHUNK_TARGET) this.#finishBlock();
  }

  /**
   * Copies bytes into the output, filling blocks to the brim (a piece may span two blocks): fewer, fuller
   * chunks than push() for file contents, and no reference to `bytes` is kept (it may be a reused buffer).
   */
  write(bytes: Uint8Array): void {
    let at = 0;
    while (at < bytes.length) {
      if (this.#block.byteLength === 0) this.#block = new Uint8Array(CHUNK_TARGET);
      const n = Math.min(CHUNK_TARGET - this.#fill, bytes.length - at);
      this.#block.set(at === 0 && n === bytes.length ? bytes : bytes.subarray(at, at + n), this.#fill);
      this.#fill += n;
      at += n;
      if (this.#fill === CHUNK_TARGET) this.#finishBlock();
    }
  }

  /**
   * A view of the free space at the end of the current block (at most `max` bytes), for
   * reading into directly; pass what was filled to commit(). A nearly full block is finished
   * first so reads are not split into tiny pieces.
   */
  reserve(max: number): Uint8Array<ArrayBuffer> {
    // A BYOB read transfers the block's buffer; after a failed read it stays detached.
    if (this.#block.byteLength === 0) {
      this.#block = new Uint8Array(CHUNK_TARGET);
      this.#fill = 0;
    }
    if (CHUNK_TARGET - this.#fill < MIN_RESERVE && CHUNK_TARGET - this.#fill < max) this.#finishBlock();
    return this.#block.subarray(this.#fill, Math.min(CHUNK_TARGET, this.#fill + max));
  }

  /** Accounts for bytes read into the view from reserve() (possibly on a transferred buffer). */
  commit(filled: Uint8Array<ArrayBuffer>): void {
    this.#block = new Uint8Array(filled.buffer);
    this.#fill = filled.byteOffset + filled.length;
    if (this.#fill === CHUNK_TARGET) this.#finishBlock();
  }

  /** Whether complete chunks are waiting to be taken. */
  get hasReady(): boolean {
    return this.#ready.length > 0;
  }

  /** Removes and returns the complete chunks. */
  take(): Uint8Array<ArrayBuffer>[] {
    const ready = this.#ready;
    this.#ready = [];
    return ready;
  }

  /** Removes and returns everything, including a partial block. */
  flush(): Uint8Array<ArrayBuffer>[] {
    this.#finishBlock();
    return this.take();
  }

  #finishBlock(): void {
    if (this.#fill === 0) return;
    this.#ready.push(this.#block.subarray(0, this.#fill));
    this.#block = new Uint8Array(CHUNK_TARGET);
    this.#fill = 0;
  }
}

/**
 * Output bytes between two young-generation collections. Every output chunk is a fresh 64 KiB ArrayBuffer
 * that the consumer (the HTTP server) holds until it has sent it, and no one can tell when that is, so none
 * can be reused. Dead, they are freed only when V8 collects their small JS objects, and little JS garbage is
 * made per chunk: with V8's default young generation a zip of 10,000 files of 32 KiB left some 70 MiB of sent
 * chunks waiting (bench/archive.ts). A collection every 2 MiB of output frees them (lib/young_gc.ts).
 */
export const YOUNG_GC_BYTES = 2 * 1024 * 1024;

/**
 * A ReadableStream fed by a generator of chunk batches, advanced only when the consumer pulls.
 * Cancelling the stream or aborting the signal ends the generator, whose `finally` blocks
 * close open files.
 */
export function streamFromGenerator(
  generator: AsyncGenerator<Uint8Array<ArrayBuffer>[]>,
  options: { signal?: AbortSignal } = {},
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const { signal } = options;
  const produced = youngCollector(YOUNG_GC_BYTES);
  let streamController: ReadableStreamDefaultController<Uint8Array<ArrayBuffer>>;
  const stop = () => {
    signal?.removeEventListener("abort", onAbort);
    // return() waits for a pending next() to settle, then runs the generator's finally blocks.
    generator.return(undefined).catch((err) => log.debug("archive: generator cleanup failed", err));
  };
  const onAbort = () => {
    streamController.error(signal?.reason);
    stop();
  };
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      streamController = controller;
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    },
    async pull(controller) {
      try {
        while (true) {
          const { done, value } = await generator.next();
          if (signal?.aborted) return;
          if (done) {
            signal?.removeEventListener("abort", onAbort);
            controller.close();
            return;
          }
          if (value.length === 0) continue;
          for (const chunk of value) {
            controller.enqueue(chunk);
            produced(chunk.length);
          }
          return;
        }
      } catch (err) {
        signal?.removeEventListener("abort", onAbort);
        if (!signal?.aborted) controller.error(err);
      }
    },
    cancel() {
      stop();
    },
  });
}
