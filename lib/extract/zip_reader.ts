/**
 * Zip reading through `@zip.js/zip.js` with random access to the file (nothing is buffered whole): the
 * central directory is walked one entry at a time; content is inflated on demand and checked against the
 * stored size and CRC-32.
 */
import { configure, type Entry, ERR_UNSAFE_FILENAME, Reader, ZipReader } from "@zip.js/zip.js";
import { BadRequestError, HttpError } from "../errors.ts";
import { log } from "../log.ts";
import type { ArchiveItem } from "./item.ts";

// Smaller reads than the 512 KiB default: less memory per entry in flight, no measurable cost.
configure({ useWebWorkers: false, chunkSize: 64 * 1024 });

/** Random reads of an open file (zip.js asks for byte ranges). */
class FileRangeReader extends Reader<Deno.FsFile> {
  readonly #file: Deno.FsFile;

  constructor(file: Deno.FsFile, size: number) {
    super(file);
    this.#file = file;
    this.size = size;
  }

  override async readUint8Array(index: number, length: number): Promise<Uint8Array> {
    const out = new Uint8Array(Math.max(0, Math.min(length, this.size - index)));
    await this.#file.seek(index, Deno.SeekMode.Start);
    let filled = 0;
    while (filled < out.length) {
      const n = await this.#file.read(out.subarray(filled));
      if (n === null) return out.subarray(0, filled);
      filled += n;
    }
    return out;
  }
}

/** A zip archive opened for one pass over its entries; close it when done. */
export interface OpenZip {
  /** Entries in central-directory order, one at a time (holding all of them costs ~9 KiB each). */
  items: AsyncIterable<ArchiveItem>;
  close(): void;
}

/** Turns zip.js failures (bad format, wrong CRC, size lies) into a 400 naming the problem. */
function zipError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof Error && err.message === ERR_UNSAFE_FILENAME) {
    // zip.js refuses `..` and absolute names itself (the same rule as lib/extract/entry_name.ts).
    const name = String((err as { filename?: unknown }).filename ?? "");
    return new BadRequestError(
      `Cannot extract: entry ${JSON.stringify(name)} points outside the destination`,
      {
        code: "hostile_entry",
        cause: err,
      },
    );
  }
  const detail = err instanceof Error ? err.message : String(err);
  return new BadRequestError(`Cannot extract: the zip archive is damaged or unsupported (${detail})`, {
    code: "bad_archive",
    cause: err,
  });
}

/** Opens the zip at `real` for a pass over its entries. */
export async function openZip(real: string, options: { signal?: AbortSignal } = {}): Promise<OpenZip> {
  const file = await Deno.open(real, { read: true });
  let size: number;
  try {
    size = (await file.stat()).size;
  } catch (err) {
    file.close();
    throw err;
  }
  const reader = new ZipReader(new FileRangeReader(file, size), {
    // No checkOverlappingEntry: it keeps ~16 KiB per entry read. Overlapping-entry bombs declare their real
    // sizes in the central directory, which the first pass sums against the size and ratio limits.
    checkCrc32: true,
    signal: options.signal,
  });
  async function* items(): AsyncGenerator<ArchiveItem> {
    const entries = reader.getEntriesGenerator()[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Entry>;
      try {
        next = await entries.next();
      } catch (err) {
        throw zipError(err);
      }
      if (next.done) return;
      yield itemOf(next.value, options.signal);
    }
  }
  return { items: items(), close: () => file.close() };
}

function itemOf(entry: Entry, signal?: AbortSignal): ArchiveItem {
  return {
    name: entry.filename,
    kind: entry.directory ? "dir" : entry.symlink ? "symlink" : "file",
    size: entry.directory ? 0 : entry.uncompressedSize,
    mtime: entry.lastModDate ?? null,
    link: "",
    content: () => {
      if (entry.directory) throw new Error("a folder has no content");
      const pipe = new TransformStream<Uint8Array, Uint8Array>();
      entry.getData(pipe.writable, { signal }).catch((err) => {
        // A failure while piping has aborted the writable already (the reader sees it); one before the
        // pipe began (overlapping entries, a bad local header) has not: abort it here so the reader ends.
        pipe.writable.abort(zipError(err)).catch((abortErr) =>
          log.debug("extract: zip entry failed", abortErr)
        );
      });
      return pipe.readable;
    },
  };
}
