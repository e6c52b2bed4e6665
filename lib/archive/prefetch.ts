/**
 * Reading ahead of the writer: the next entries are pulled from the source and opened (or, for small files
 * that offer ArchiveEntry.readWhole, read whole) while the current one is written, so the latency of
 * stat/open/read (one thread-pool round trip each in Deno) overlaps instead of adding up. What is held ahead is
 * bounded twice: at most `depth` entries (each stream holds one file descriptor) and at most `maxBytes` of
 * content read whole, the entry being written included (one entry larger than that is read alone).
 */
import { log } from "../log.ts";
import { type ArchiveEntry, entryFailure, sanitizeEntryName } from "./entry.ts";

/** An entry with its sanitised name, opened or read (files) and ready to be written. */
export interface PreparedEntry {
  entry: ArchiveEntry;
  /** Sanitised relative name, without a trailing `/`. */
  name: string;
  /** The content as a stream; null for directories and for content read whole (`bytes`). */
  stream: ReadableStream<Uint8Array> | null;
  /** The whole content, when the entry's readWhole() gave it; null otherwise. */
  bytes: Uint8Array | null;
}

/** How many entries are prepared ahead at most. */
export const PREFETCH_DEPTH = 16;
/** How many bytes of content read whole may be held, ahead of the writer and in its hands. */
export const PREFETCH_BYTES = 1024 * 1024;
/**
 * Size of the buffers lent to ArchiveEntry.readWhole, reused from entry to entry (a larger entry gets one of
 * its own size); each counts whole against the byte budget while it holds an entry's content.
 */
export const PREFETCH_SLAB = 64 * 1024;

type Slot =
  | { kind: "entry"; value: PreparedEntry; lent?: Uint8Array }
  | { kind: "skip" }
  | { kind: "end" }
  | { kind: "error"; error: unknown }
  | { kind: "failed"; error: Error };

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}

function discard(slot: Promise<Slot>): void {
  slot.then((s) => {
    if (s.kind === "entry") return s.value.stream?.cancel();
  }).catch((err) => log.debug("archive: closing a prefetched entry failed", err));
}

/** Options of prepareEntries. */
export interface PrepareOptions {
  signal?: AbortSignal;
  /** Entries prepared ahead at most (PREFETCH_DEPTH). */
  depth?: number;
  /** Bytes read whole held at most (PREFETCH_BYTES), the entry being written included; one alone may exceed it. */
  maxBytes?: number;
  /** Size of the reused buffers lent to readWhole (PREFETCH_SLAB). */
  slab?: number;
}

/**
 * Yields the entries in order, sanitised and opened or read, with up to `depth` of them prepared ahead and at
 * most `maxBytes` of content read whole held. Refused names are skipped (logged); a file that cannot be opened
 * or read throws (entryFailure) when its turn comes, not before. When the consumer stops early, nothing more
 * is read, and the streams opened ahead are cancelled (closing their files).
 */
export async function* prepareEntries(
  entries: AsyncIterable<ArchiveEntry>,
  options: PrepareOptions = {},
): AsyncGenerator<PreparedEntry> {
  const depth = Math.max(1, options.depth ?? PREFETCH_DEPTH);
  const maxBytes = options.maxBytes ?? PREFETCH_BYTES;
  const slab = options.slab ?? PREFETCH_SLAB;
  // Buffers lent to readWhole and given back when their entry is written: no allocation per small file.
  const pool: Uint8Array[] = [];
  const iterator = entries[Symbol.asyncIterator]();
  const queue: Promise<Slot>[] = [];
  let ended = false;
  let stopped = false;
  // Bytes read whole and not yet written (the writer is done with an entry when it asks for the next one); a
  // read that would pass maxBytes waits for `wake`.
  let held = 0;
  let wake: (() => void) | null = null;
  const release = (lent: Uint8Array | undefined) => {
    if (lent) {
      held -= lent.length;
      if (lent.length === slab) pool.push(lent);
    }
    const w = wake;
    wake = null;
    w?.();
  };
  const roomFor = async (size: number) => {
    while (!stopped && held > 0 && held + size > maxBytes) await new Promise<void>((r) => wake = r);
  };

  // The part of preparing an entry that runs in entry order: its name, and reading it whole when it can.
  // Opening a stream is only started here, so several opens overlap.
  async function start(entry: ArchiveEntry): Promise<Slot | { opening: Promise<Slot> }> {
    const name = sanitizeEntryName(entry.name);
    if (name === null) {
      log.warn(`archive: skipping entry with unusable name "${entry.name}"`);
      return { kind: "skip" };
    }
    if (entry.isDir) return { kind: "entry", value: { entry, name, stream: null, bytes: null } };
    try {
      if (entry.readWhole) {
        const size = Math.max(0, entry.size);
        await roomFor(size <= slab ? slab : size);
        if (stopped) return { kind: "end" };
        const lent = size <= slab ? pool.pop() ?? new Uint8Array(slab) : new Uint8Array(size);
        const bytes = entry.readWhole(lent);
        if (bytes !== null) {
          held += lent.length;
          return { kind: "entry", value: { entry, name, stream: null, bytes }, lent };
        }
        if (lent.length === slab) pool.push(lent);
      }
    } catch (err) {
      return { kind: "failed", error: entryFailure(name, err) };
    }
    if (!entry.open) return { kind: "entry", value: { entry, name, stream: emptyStream(), bytes: null } };
    return {
      opening: Promise.resolve().then(() => entry.open!()).then(
        (stream): Slot => ({ kind: "entry", value: { entry, name, stream, bytes: null } }),
        // Listed but gone or unreadable: skipping it would end the archive short without anyone noticing.
        (err): Slot => ({ kind: "failed", error: entryFailure(name, err) }),
      ),
    };
  }

  // next() calls are chained, never concurrent (a hand-written iterator need not support that), and so are
  // the whole reads (in entry order, within the byte budget), but they run ahead of the consumer. Each slot
  // settles to a value (never rejects), so an error ahead cannot become an unhandled rejection.
  let previous: Promise<unknown> = Promise.resolve();
  const request = () => {
    const step = previous
      .then(() => stopped ? { done: true as const, value: undefined } : iterator.next())
      .then(
        (r) => r.done ? { kind: "end" } as const : start(r.value),
        (error): Slot => ({ kind: "error", error }),
      );
    previous = step;
    queue.push(step.then((s) => "opening" in s ? s.opening : s));
  };
  try {
    for (let i = 0; i < depth; i++) request();
    while (queue.length > 0) {
      options.signal?.throwIfAborted();
      const slot = await queue.shift()!;
      if (slot.kind === "end" || slot.kind === "error") {
        ended = true;
        if (slot.kind === "error") throw slot.error;
        return;
      }
      if (slot.kind === "failed") throw slot.error;
      request();
      if (slot.kind === "entry") {
        yield slot.value;
        // The writer asks for the next entry: it is done with these bytes.
        release(slot.lent);
      }
    }
  } finally {
    stopped = true;
    release(undefined);
    for (const slot of queue.splice(0)) discard(slot);
    if (!ended) {
      // After the pending next() (if any): return() must not overtake it.
      await previous.catch(() => undefined);
      await iterator.return?.()?.catch((err) => log.debug("archive: closing the entry source failed", err));
    }
  }
}
