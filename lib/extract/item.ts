/** The shape every archive reader hands to the extractor. */

/** What an archive entry is; only files and folders are ever created. */
export type ItemKind = "file" | "dir" | "symlink" | "hardlink" | "other";

/** One entry of an archive as its reader sees it. */
export interface ArchiveItem {
  /** The name as stored (not yet checked: may be absolute, contain `..` or control characters). */
  name: string;
  kind: ItemKind;
  /** Declared uncompressed size (0 for anything but files); zip archives may lie about it. */
  size: number;
  mtime: Date | null;
  /** Link target of symlinks and hard links (never used: links are skipped). */
  link: string;
  /** The content of a file; valid until the reader moves to the next entry. */
  content(): ReadableStream<Uint8Array>;
}
