/**
 * Writing one tus chunk (a PATCH body) into a staging file. The body is read with a BYOB reader straight into
 * two 1 MiB buffers, so a 10 MiB chunk takes about a dozen reads and ten file writes instead of ~160 of each
 * (Deno hands request bodies out in 64 KiB pieces), and one buffer is written while the other fills, so network
 * and disk work overlap. Memory stays at two buffers per running chunk. Streams without BYOB support (tests,
 * other runtimes) are copied into the same buffers.
 */
import { ConflictError } from "../errors.ts";
import { openFile, serverPath } from "../fs/floor.ts";
import type { StagingSync } from "./background_sync.ts";

/** Size of each of the two write buffers of a chunk. */
const WRITE_BUFFER_BYTES = 1024 * 1024;
/** A background fdatasync of the staging file is asked for after this many written bytes (and after a chunk). */
const SYNC_EVERY_BYTES = 8 * 1024 * 1024;

/** The outcome of writing one chunk. */
export interface ChunkResult {
  /** Bytes appended at the offset (0 after an overflow). */
  written: number;
  /** The body was longer than `limit`: nothing was kept and the rest of the body is still unread. */
  overflow: boolean;
  /** The body stream failed (client gone); the bytes written until then are kept. */
  aborted: boolean;
}

/** Options of writeChunk. */
export interface WriteChunkOptions {
  /** Where the chunk starts; the file is cut to this length first (repairs bytes of a crashed write). */
  offset: number;
  /** Most bytes the chunk may carry (declared length − offset). */
  limit: number;
  /** Flushes written data to disk in the background while the chunk arrives (AppDeps.stagingSync); none = not. */
  backgroundSync?: StagingSync;
}

/** Spare write buffers, reused across chunks: a 1 GiB upload would otherwise leave ~200 MiB of garbage. */
const pool: Uint8Array<ArrayBuffer>[] = [];
const POOL_MAX = 8;

function takeBuffer(): Uint8Array<ArrayBuffer> {
  return pool.pop() ?? new Uint8Array(WRITE_BUFFER_BYTES);
}

function giveBack(buffer: Uint8Array<ArrayBuffer>): void {
  if (pool.length < POOL_MAX && buffer.byteLength === WRITE_BUFFER_BYTES) pool.push(buffer);
}

async function writeAll(file: Deno.FsFile, data: Uint8Array): Promise<void> {
  let done = 0;
  while (done < data.length) done += await file.write(data.subarray(done));
}

/** Two buffers: one fills while the other is written. */
class DoubleBuffer {
  #file: Deno.FsFile;
  #buffers = [takeBuffer(), takeBuffer()];
  #current = 0;
  #fill = 0;
  #inFlight: Promise<void> = Promise.resolve();
  #onWritten: (bytes: number) => void;

  constructor(file: Deno.FsFile, onWritten: (bytes: number) => void) {
    this.#file = file;
    this.#onWritten = onWritten;
  }

  /** The free part of the current buffer, at most `max` bytes (for a BYOB read). */
  space(max: number): Uint8Array<ArrayBuffer> {
    const buf = this.#buffers[this.#current];
    return new Uint8Array(buf.buffer, this.#fill, Math.min(WRITE_BUFFER_BYTES - this.#fill, max));
  }

  /**
   * Forgets the unwritten part of the current buffer; returns its size. Needed after a failed BYOB read: the
   * read transferred the whole buffer into the stream, and the stream keeps it.
   */
  dropCurrent(): number {
    const lost = this.#fill;
    this.#buffers[this.#current] = takeBuffer();
    this.#fill = 0;
    return lost;
  }

  /** Accounts for a BYOB read into `space()`; the read transferred the buffer, so adopt the new one. */
  async filled(view: Uint8Array): Promise<void> {
    this.#buffers[this.#current] = new Uint8Array(view.buffer as ArrayBuffer);
    this.#fill += view.length;
    if (this.#fill === WRITE_BUFFER_BYTES) await this.#rotate();
  }

  /** Copies `data` in (non-BYOB streams). */
  async push(data: Uint8Array): Promise<void> {
    let at = 0;
    while (at < data.length) {
      const n = Math.min(WRITE_BUFFER_BYTES - this.#fill, data.length - at);
      this.#buffers[this.#current].set(data.subarray(at, at + n), this.#fill);
      this.#fill += n;
      at += n;
      if (this.#fill === WRITE_BUFFER_BYTES) await this.#rotate();
    }
  }

  async #rotate(): Promise<void> {
    // The other buffer is filled next, so its write must be done first.
    await this.#inFlight;
    const full = this.#buffers[this.#current].subarray(0, this.#fill);
    this.#inFlight = writeAll(this.#file, full).then(() => this.#onWritten(full.length));
    this.#current ^= 1;
    this.#fill = 0;
  }

  /** Writes what is buffered and waits for every write. */
  async flush(): Promise<void> {
    if (this.#fill > 0) await this.#rotate();
    await this.#inFlight;
  }

  /** Hands the buffers back to the pool (after flush). */
  release(): void {
    for (const buffer of this.#buffers) giveBack(buffer);
    this.#buffers = [];
  }
}

function byobReaderOf(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return body.getReader({ mode: "byob" });
  } catch {
    // Not a byte stream.
    return null;
  }
}

/** Reads at most `max` bytes of `body` into `out`; returns the count and whether the stream failed. */
async function pump(
  body: ReadableStream<Uint8Array>,
  out: DoubleBuffer,
  max: number,
): Promise<{ received: number; aborted: boolean }> {
  let received = 0;
  const byob = byobReaderOf(body);
  const reader = byob ?? body.getReader();
  try {
    while (received < max) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = byob
          ? await byob.read(out.space(max - received))
          : await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
      } catch {
        // The client went away mid-chunk: keep what is safe, tus resumes from the file size. A failed
        // BYOB read took the current buffer with it, so its bytes are not counted.
        if (byob) received -= out.dropCurrent();
        return { received, aborted: true };
      }
      if (result.done) {
        // A BYOB read that ends the stream still hands the (empty) buffer back; adopt it, or lose it.
        if (byob && result.value) await out.filled(result.value);
        else if (byob) received -= out.dropCurrent();
        break;
      }
      const data = result.value;
      if (byob) {
        await out.filled(data);
        received += data.length;
      } else {
        // A default reader may hand out more than is allowed; keep only what fits (the rest means overflow).
        const take = data.subarray(0, max - received);
        await out.push(take);
        received += data.length;
      }
    }
  } finally {
    reader.releaseLock();
  }
  return { received, aborted: false };
}

/**
 * Appends a request body to a staging file at `offset`. Reads at most `limit + 1` bytes: if more than
 * `limit` arrive, the file is cut back to `offset` and the result says `overflow` (the caller answers 413
 * and the rest of the body is left for the HTTP layer to drain). The reader lock is always released.
 */
export async function writeChunk(
  path: string,
  body: ReadableStream<Uint8Array> | null,
  options: WriteChunkOptions,
): Promise<ChunkResult> {
  // The staging file is the server's (uploadDir), never a user's path.
  const file = await openFile(serverPath(path), { write: true });
  try {
    const size = (await file.stat()).size;
    // Cutting a shorter file "to" the offset would pad it with zeros: refuse, the caller re-reads the offset.
    if (size < options.offset) throw new ConflictError("staging_too_short");
    // Only when needed: on ext4 (data=ordered) even a same-size truncate waits for the writeback of the file's
    // dirty pages, which made every chunk stall behind the disk.
    if (size > options.offset) await file.truncate(options.offset);
    await file.seek(options.offset, Deno.SeekMode.Start);
    const sync = options.backgroundSync;
    let unsynced = 0;
    const out = new DoubleBuffer(file, (bytes) => {
      unsynced += bytes;
      if (sync && unsynced >= SYNC_EVERY_BYTES) {
        unsynced = 0;
        sync.start(path);
      }
    });
    let received = 0, aborted = false;
    try {
      if (body) ({ received, aborted } = await pump(body, out, options.limit + 1));
    } finally {
      try {
        await out.flush();
      } finally {
        out.release();
      }
    }
    if (received > options.limit) {
      await file.truncate(options.offset);
      return { written: 0, overflow: true, aborted };
    }
    // The rest of the chunk goes to disk while the client sends the next one (or completion waits for it);
    // under a MiB is left for the final sync.
    if (sync && unsynced >= WRITE_BUFFER_BYTES) sync.start(path);
    return { written: received, overflow: false, aborted };
  } finally {
    file.close();
  }
}
