// This module is browser-compatible.
/** The archive formats the server extracts, told by file name (the UI offers "Extract here" for these). */

/** A format that can be extracted. */
export type ExtractFormat = "zip" | "tar" | "tar.gz" | "tar.bz2" | "tar.xz" | "tar.zst";

const SUFFIXES: [string, ExtractFormat][] = [
  [".zip", "zip"],
  [".tar", "tar"],
  [".tar.gz", "tar.gz"],
  [".tgz", "tar.gz"],
  [".tar.bz2", "tar.bz2"],
  [".tbz2", "tar.bz2"],
  [".tbz", "tar.bz2"],
  [".tar.xz", "tar.xz"],
  [".txz", "tar.xz"],
  [".tar.zst", "tar.zst"],
  [".tzst", "tar.zst"],
];

/** The format of an archive by its name (case-insensitive), or null when it is not one we extract. */
export function extractFormatOf(name: string): ExtractFormat | null {
  const lower = name.toLowerCase();
  for (const [suffix, format] of SUFFIXES) if (lower.endsWith(suffix)) return format;
  return null;
}

/** Where an archive's entries go: the conflict policy of an extraction. */
export type ExtractConflict = "skip" | "replace" | "rename";
