// This module is browser-compatible.
/**
 * What an archive entry's name may become on disk. Names that climb out (`..`) or are absolute mark the
 * archive as hostile (the whole extraction is refused); names that only cannot be created (control
 * characters, over-long) are skipped and reported, like an upload of that name would be refused.
 */
import { newNameProblem } from "../names.ts";

/** The verdict on one entry name. */
export type EntryNameVerdict =
  | { ok: true; segments: string[] }
  | { ok: false; hostile: boolean; reason: "absolute" | "traversal" | "bad_name" | "empty" };

/** Splits an entry name into path segments, or says why it cannot be extracted. */
export function checkEntryName(name: string): EntryNameVerdict {
  // Windows tools write `\` as a separator; treating it as one makes `..\..\x` the traversal it is there.
  const unified = name.replaceAll("\\", "/");
  if (unified.startsWith("/") || /^[A-Za-z]:/.test(unified)) {
    return { ok: false, hostile: true, reason: "absolute" };
  }
  const segments: string[] = [];
  for (const segment of unified.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") return { ok: false, hostile: true, reason: "traversal" };
    segments.push(segment);
  }
  if (segments.length === 0) return { ok: false, hostile: false, reason: "empty" };
  if (segments.some((s) => newNameProblem(s) !== null)) {
    return { ok: false, hostile: false, reason: "bad_name" };
  }
  return { ok: true, segments };
}
