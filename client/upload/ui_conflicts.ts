// This module is browser-compatible.
/**
 * Name conflicts of an upload: which picked or dropped entries already exist in the destination.
 * Top-level names are checked against the destination listing; a picked folder whose name is already a folder
 * there is merged, so its files are checked one by one against the recursive listing of that folder
 * (`GET /api/resources/recursive<dest><name>/`, docs/api.md#resources).
 */
import type { UploadSource } from "./sources.ts";

/** An entry of a listing: its name (top level) or full vpath (recursive), and whether it is a folder. */
export interface ExistingEntry {
  path: string;
  name?: string;
  isDir: boolean;
}

/** How the destination is read (the API in the browser, fakes in tests). */
export interface ConflictReaders {
  /** The items of the folder `dir` (trailing slash). */
  list(dir: string): Promise<ExistingEntry[]>;
  /** Every entry below the folder `dir` (trailing slash), with full vpaths. */
  listRecursive(dir: string): Promise<ExistingEntry[]>;
}

function segmentsOf(path: string): string[] {
  return path.split("/").filter((s) => s !== "" && s !== "." && s !== "..");
}

function folderOf(dest: string): string {
  return dest.endsWith("/") ? dest : `${dest}/`;
}

/** Top-level names of the sources that are (or contain) folders. */
function folderNames(sources: UploadSource[]): Set<string> {
  const out = new Set<string>();
  for (const s of sources) {
    const segs = segmentsOf(s.path);
    if (segs.length > 1 || (s.isDir && segs.length === 1)) out.add(segs[0]);
  }
  return out;
}

/**
 * The source paths (as given in `sources`) that would replace or collide with something in `dest`: files whose
 * path exists, and everything under a picked folder whose name is taken by a file. Reads at most one recursive
 * listing per picked folder that already exists.
 */
export async function findConflicts(
  sources: UploadSource[],
  dest: string,
  readers: ConflictReaders,
): Promise<Set<string>> {
  const dir = folderOf(dest);
  const top = new Map((await readers.list(dir)).map((e) => [e.name ?? segmentsOf(e.path).at(-1)!, e.isDir]));
  const folders = folderNames(sources);
  // Folders picked under a name that is already a folder: compare their files with what is inside.
  const merged = new Map<string, Map<string, boolean>>();
  for (const name of folders) {
    if (top.get(name) !== true) continue;
    const inside = new Map<string, boolean>();
    for (const e of await readers.listRecursive(`${dir}${name}/`)) {
      const rel = e.path.startsWith(dir) ? e.path.slice(dir.length) : e.path;
      inside.set(segmentsOf(rel).join("/"), e.isDir);
    }
    merged.set(name, inside);
  }
  const out = new Set<string>();
  for (const s of sources) {
    const segs = segmentsOf(s.path);
    if (segs.length === 0 || !top.has(segs[0])) continue;
    const nested = segs.length > 1 || s.isDir;
    if (!nested) {
      // A file named like an existing file or folder.
      out.add(s.path);
      continue;
    }
    const inside = merged.get(segs[0]);
    if (!inside) {
      // The folder's name is taken by a file: nothing below it can be created.
      out.add(s.path);
      continue;
    }
    const rel = segs.join("/");
    const existing = inside.get(rel);
    // An existing folder is reused; a file replaces, and a file/folder clash cannot be merged.
    if (existing !== undefined && !(existing && s.isDir)) out.add(s.path);
  }
  return out;
}

/** The sources minus the conflicting ones ("continue" of the replace prompt: skip what exists). */
export function withoutConflicts(sources: UploadSource[], conflicts: ReadonlySet<string>): UploadSource[] {
  return sources.filter((s) => !conflicts.has(s.path));
}
