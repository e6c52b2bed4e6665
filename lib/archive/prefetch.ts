/**
 * Reading ahead of the writer: the next few entries are pulled from the source and opened
 * while the current one is written, so the latency of stat/open/read (one thread-pool round
 * trip each in Deno) overlaps instead of adding up.
 */
import { log } from "../log.ts";
import { type ArchiveEntry, entryFailure, sanitizeEntryName } from "./entry.ts";

/** An entry with its sanitised name, opened (files) and ready to be written. */
export interface PreparedEntry {
  entry: ArchiveEntry;
  /** Sanitised relative name, without a trailing `/`. */
  name: string;
  /** The content; null for directories. */
  stream: ReadableStream<Uint8Array> | null;
}

/** How many entries are opened ahead; each holds one file descriptor and at most one chunk. */
export const PREFETCH_DEPTH = 8;

type Slot =
  | { kind: "entry"; value: PreparedEntry }
  | { kind: "skip" }
  | { kind: "end" }
  | { kind: "error"; error: unknown }
  | { kind: "failed"; error: Error };

async function prepare(entry: ArchiveEntry): Promise<Slot> {
  const name = sanitizeEntryName(entry.name);
  if (name === null) {
    log.warn(`archive: skipping entry with unusable name "${entry.name}"`);
    return { kind: "skip" };
  }
  if (entry.isDir) return { kind: "entry", value: { entry, name, stream: null } };
  if (!entry.open) return { kind: "entry", value: { entry, name, stream: emptyStream() } };
  try {
    return { kind: "entry", value: { entry, name, stream: await entry.open() } };
  } catch (err) {
    // Listed but gone or unreadable: skipping it would end the archive short without anyone noticing.
    return { kind: "failed", error: entryFailure(name, err) };
  }
}

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}

function discard(slot: Promise<Slot>): void {
  slot.then((s) => {
    if (s.kind === "entry") return s.value.stream?.cancel();
  }).catch((err) => log.debug("archive: closing a prefetched entry failed", err));
}

/**
 * Yields the entries in order, sanitised and opened, with up to `depth` of them prepared
 * ahead. Refused names are skipped (logged); a file that cannot be opened throws (entryFailure). When
 * the consumer stops early, the streams opened ahead are cancelled (closing their files).
 */
export async function* prepareEntries(
  entries: AsyncIterable<ArchiveEntry>,
  options: { signal?: AbortSignal; depth?: number } = {},
): AsyncGenerator<PreparedEntry> {
  const depth = options.depth ?? PREFETCH_DEPTH;
  const iterator = entries[Symbol.asyncIterator]();
  const queue: Promise<Slot>[] = [];
  let ended = false;
  // next() calls are chained, never concurrent (a hand-written iterator need not support
  // that), but they run ahead of the consumer. Each slot settles to a value (never rejects),
  // so an error ahead cannot become an unhandled rejection.
  let previous: Promise<unknown> = Promise.resolve();
  const request = () => {
    const next = previous.then(() => iterator.next());
    previous = next.catch(() => undefined);
    queue.push(next.then(
      (r): Slot | Promise<Slot> => r.done ? { kind: "end" } : prepare(r.value),
      (error): Slot => ({ kind: "error", error }),
    ));
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
      if (slot.kind === "entry") yield slot.value;
    }
  } finally {
    for (const slot of queue.splice(0)) discard(slot);
    if (!ended) {
      await iterator.return?.()?.catch((err) => log.debug("archive: closing the entry source failed", err));
    }
  }
}
