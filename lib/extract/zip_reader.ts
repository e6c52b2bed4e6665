/**
 * Zip reading for extraction, with random access to the file (nothing is buffered whole): the central
 * directory is walked in bounded reads (./zip_directory.ts), one small object per entry; content is read
 * from the local header on and inflated on demand, checked against the stored size and CRC-32
 * (./zip_content.ts).
 */
import type { ArchiveItem } from "./item.ts";
import { zipEntryContent } from "./zip_content.ts";
import { fileAccess, type RandomAccess, readZipDirectory, type ZipDirectoryEntry } from "./zip_directory.ts";

/** A zip archive opened for one pass over its entries; close it when done. */
export interface OpenZip {
  /** Entries in central-directory order, one at a time. */
  items: AsyncGenerator<ArchiveItem>;
  close(): Promise<void>;
}

/**
 * Opens the zip in `file` (opened by the caller through the disk floor; closed by `close()`, or at once when it
 * cannot be read) for a pass over its entries (`content` reads them: the write pass).
 */
export async function openZip(file: Deno.FsFile, options: { signal?: AbortSignal } = {}): Promise<OpenZip> {
  let src: RandomAccess;
  try {
    src = fileAccess(file, (await file.stat()).size);
  } catch (err) {
    file.close();
    throw err;
  }
  const entries = readZipDirectory(src, options);
  async function* items(): AsyncGenerator<ArchiveItem> {
    for await (const entry of entries) yield itemOf(src, entry, options.signal);
  }
  const generator = items();
  return {
    items: generator,
    close: async () => {
      await generator.return(undefined);
      file.close();
    },
  };
}

function itemOf(src: RandomAccess, entry: ZipDirectoryEntry, signal?: AbortSignal): ArchiveItem {
  return {
    name: entry.name,
    kind: entry.directory ? "dir" : entry.symlink ? "symlink" : "file",
    size: entry.directory ? 0 : entry.uncompressedSize,
    mtime: Number.isNaN(entry.modified) ? null : new Date(entry.modified),
    link: "",
    content: () => {
      if (entry.directory) throw new Error("a folder has no content");
      return zipEntryContent(src, entry, signal);
    },
  };
}
