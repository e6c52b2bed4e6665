/**
 * Zip reading through `@zip.js/zip.js` with random access to the file (nothing is buffered whole): the
 * central directory gives every entry up front; content is inflated on demand, checked against the stored
 * size and CRC-32, and entries that overlap each other (a known zip-bomb construction) are refused.
 */
import { configure, type Entry, ERR_UNSAFE_FILENAME, Reader, ZipReader } from "@zip.js/zip.js";
import { BadRequestError, HttpError } from "../errors.ts";
import { log } from "../log.ts";
import type { ArchiveItem } from "./item.ts";

configure({ useWebWorkers: false });

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

/** A zip archive opened for extraction; close it when done. */
export interface OpenZip {
  items: ArchiveItem[];
  close(): void;
}

/** Turns zip.js failures (bad format, wrong CRC, size lies) into a 400 naming the problem. */
export function zipError(err: unknown): HttpError {
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

/** Opens the zip at `real` and lists its entries. */
export async function openZip(real: string, options: { signal?: AbortSignal } = {}): Promise<OpenZip> {
  const file = await Deno.open(real, { read: true });
  try {
    const size = (await file.stat()).size;
    const reader = new ZipReader(new FileRangeReader(file, size), {
      checkCrc32: true,
      checkOverlappingEntry: true,
      signal: options.signal,
    });
    let entries: Entry[];
    try {
      entries = await reader.getEntries();
    } catch (err) {
      throw zipError(err);
    }
    const items = entries.map((entry): ArchiveItem => ({
      name: entry.filename,
      kind: entry.directory ? "dir" : entry.symlink ? "symlink" : "file",
      size: entry.directory ? 0 : entry.uncompressedSize,
      mtime: entry.lastModDate ?? null,
      link: "",
      content: () => {
        if (entry.directory) throw new Error("a folder has no content");
        const pipe = new TransformStream<Uint8Array, Uint8Array>();
        // getData() may fail before it writes anything (overlap, bad header): race every read against it.
        const failed = new Promise<never>((_, reject) => {
          entry.getData(pipe.writable, { signal: options.signal }).catch((err) => reject(zipError(err)));
        });
        failed.catch((err) => log.debug("extract: zip entry failed", err));
        const reader = pipe.readable.getReader();
        return new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { done, value } = await Promise.race([reader.read(), failed]);
            if (done) controller.close();
            else controller.enqueue(value);
          },
          cancel: (reason) => reader.cancel(reason),
        });
      },
    }));
    return { items, close: () => file.close() };
  } catch (err) {
    file.close();
    throw err;
  }
}
