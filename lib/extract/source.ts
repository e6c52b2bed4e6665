/**
 * Which archive formats can be extracted, and opening one as a sequence of {@link ArchiveItem}s: zip through
 * its central directory, tar as a stream (gzip through DecompressionStream; bzip2, xz and zstd through the
 * system tools, killed when the stream is cancelled). The archive is opened through the disk floor
 * (lib/fs/floor.ts): the very file the gate checked, never a link swapped in since.
 */
import { isToolInstalled, spawnCompressor, type ToolCommand } from "../archive/spawn.ts";
import { BadRequestError, UnavailableError } from "../errors.ts";
import { openFile, pinTarget } from "../fs/floor.ts";
import type { ScopedPath } from "../fs/gate.ts";
import type { ExtractFormat } from "./formats.ts";
import type { ArchiveItem } from "./item.ts";
import { readTar } from "./tar_reader.ts";
import { fileAccess, readZipDirectory } from "./zip_directory.ts";
import { assertReadable } from "./zip_content.ts";
import { openZip } from "./zip_reader.ts";

const TOOLS: Record<string, ToolCommand> = {
  "tar.bz2": { tool: "bzip2", path: "bzip2", args: ["-dc"] },
  "tar.xz": { tool: "xz", path: "xz", args: ["-dc", "-T1"] },
  "tar.zst": { tool: "zstd", path: "zstd", args: ["-dc", "-q"] },
};

/** An archive opened for one pass over its entries. */
export interface OpenArchive {
  items: AsyncIterable<ArchiveItem>;
  /** Ends the pass early (cancels the input, kills a decompressor). */
  close(): Promise<void>;
}

/** What the first pass of an extraction reads of an entry. */
export type ArchiveHeader = Pick<ArchiveItem, "name" | "kind" | "size">;

/** An archive opened for one pass over its entries' headers. */
export interface OpenHeaders {
  items: AsyncIterable<ArchiveHeader>;
  close(): Promise<void>;
}

/** Throws 503 when the format needs a tool the server lacks. */
export async function assertFormatAvailable(format: ExtractFormat): Promise<void> {
  const command = TOOLS[format];
  if (command && !(await isToolInstalled(command.path))) {
    throw new UnavailableError(
      "archive_tool_missing",
      `Cannot extract: the "${command.tool}" tool is not installed on the server`,
    );
  }
}

/**
 * Opens the checked archive for reading: its real path pinned beneath the files root (403 when a folder on the
 * way or the file itself became a link since the check; a FIFO or device is refused), the pin closed once open.
 */
async function openChecked(archive: ScopedPath): Promise<Deno.FsFile> {
  using pin = pinTarget(archive);
  return await openFile(pin);
}

/** Opens the checked archive for one pass over its entries. */
export async function openArchive(
  archive: ScopedPath,
  format: ExtractFormat,
  options: { signal?: AbortSignal } = {},
): Promise<OpenArchive> {
  const file = await openChecked(archive);
  if (format === "zip") {
    const zip = await openZip(file, options);
    return { items: zip.items, close: () => Promise.resolve(zip.close()) };
  }
  let input: ReadableStream<Uint8Array> = file.readable;
  if (format === "tar.gz") {
    input = input.pipeThrough(new DecompressionStream("gzip") as TransformStream<Uint8Array, Uint8Array>);
  } else if (format !== "tar") input = spawnCompressor(input, TOOLS[format]);
  const items = readTar(input, options);
  return { items, close: async () => void await items.return(undefined) };
}

/**
 * Opens the checked archive for one pass over its entries' headers: a zip through our own central directory
 * reader (./zip_directory.ts: bounded reads, little garbage per entry), a tar as for the content pass.
 */
export async function openHeaders(
  archive: ScopedPath,
  format: ExtractFormat,
  options: { signal?: AbortSignal } = {},
): Promise<OpenHeaders> {
  if (format !== "zip") return await openArchive(archive, format, options);
  const file = await openChecked(archive);
  let size: number;
  try {
    size = (await file.stat()).size;
  } catch (err) {
    file.close();
    throw err;
  }
  const entries = readZipDirectory(fileAccess(file, size), options);
  async function* items(): AsyncGenerator<ArchiveHeader> {
    for await (const e of entries) {
      assertReadable(e);
      yield {
        name: e.name,
        kind: e.directory ? "dir" : e.symlink ? "symlink" : "file",
        size: e.directory ? 0 : e.uncompressedSize,
      };
    }
  }
  return {
    items: items(),
    close: async () => {
      await entries.return(undefined);
      file.close();
    },
  };
}

/** The 400 for an archive whose compressed stream cannot be read. */
export function damagedStream(format: ExtractFormat, cause: unknown): BadRequestError {
  return new BadRequestError(`Cannot extract: the ${format} archive is damaged`, {
    code: "bad_archive",
    cause,
  });
}
