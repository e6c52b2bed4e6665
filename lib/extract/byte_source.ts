/** Buffered reads of exact byte counts from a stream (for the tar reader). */
import { log } from "../log.ts";

/** Reads a byte stream in exact amounts; `null`/short results mean the stream ended. */
export class ByteSource {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #chunk: Uint8Array = new Uint8Array(0);
  #pos = 0;
  #done = false;
  /** Bytes handed out or skipped so far. */
  consumed = 0;

  readonly #signal?: AbortSignal;

  constructor(stream: ReadableStream<Uint8Array>, signal?: AbortSignal) {
    this.#reader = stream.getReader();
    this.#signal = signal;
  }

  async #more(): Promise<boolean> {
    while (!this.#done) {
      this.#signal?.throwIfAborted();
      const { done, value } = await this.#reader.read();
      if (done) {
        this.#done = true;
        return false;
      }
      if (value.length === 0) continue;
      this.#chunk = value;
      this.#pos = 0;
      return true;
    }
    return false;
  }

  /** Up to `max` bytes (at least one unless the stream ended: then an empty array); may be a view. */
  async next(max: number): Promise<Uint8Array> {
    if (this.#pos >= this.#chunk.length && !(await this.#more())) return new Uint8Array(0);
    const n = Math.min(max, this.#chunk.length - this.#pos);
    const out = this.#chunk.subarray(this.#pos, this.#pos + n);
    this.#pos += n;
    this.consumed += n;
    return out;
  }

  /** Exactly `n` bytes (a copy), or fewer when the stream ended first. */
  async read(n: number): Promise<Uint8Array> {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const part = await this.next(n - filled);
      if (part.length === 0) return out.subarray(0, filled);
      out.set(part, filled);
      filled += part.length;
    }
    return out;
  }

  /** Discards `n` bytes; returns how many were really there. */
  async skip(n: number): Promise<number> {
    let left = n;
    while (left > 0) {
      const part = await this.next(Math.min(left, 1 << 20));
      if (part.length === 0) break;
      left -= part.length;
    }
    return n - left;
  }

  /** Stops reading and cancels the stream. */
  async cancel(reason?: unknown): Promise<void> {
    this.#done = true;
    await this.#reader.cancel(reason).catch((err) => log.debug("extract: cancelling the input failed", err));
  }
}
