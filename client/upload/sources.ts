// This module is browser-compatible.
/**
 * Turning what the user picked or dropped into queue jobs: files from an `<input type=file>` (with
 * `webkitRelativePath` for folders) or from a drop (`DataTransferItem.webkitGetAsEntry()`, walked recursively),
 * plus the name-conflict check that decides whether the replace prompt is shown.
 */
import type { UploadBlob, UploadJob } from "./uploader.ts";

/** One picked entry, relative to the upload destination. */
export interface UploadSource {
  /** Relative path, `/`-separated, e.g. "photos/2024/a.jpg" or "photos" for a folder. */
  path: string;
  isDir: boolean;
  /** The file (absent for folders). */
  file?: UploadBlob;
}

function joinDest(dest: string, rel: string): string {
  const base = dest.endsWith("/") ? dest : `${dest}/`;
  return base + rel.split("/").filter((s) => s !== "" && s !== "." && s !== "..").join("/");
}

/** The top-level names of the sources ("photos" for "photos/a.jpg"). */
export function topLevelNames(sources: UploadSource[]): string[] {
  return [...new Set(sources.map((s) => s.path.split("/").filter(Boolean)[0]).filter(Boolean))];
}

/** The top-level names that already exist in the destination listing (replace prompt when not empty). */
export function conflictingNames(sources: UploadSource[], existing: Iterable<string>): string[] {
  const taken = new Set(existing);
  return topLevelNames(sources).filter((n) => taken.has(n));
}

/**
 * Queue jobs for sources dropped or picked into the folder `dest`: one folder job per folder (explicit or implied
 * by a file's path, parents first), then the file jobs. `skip` drops top-level names (the user chose not to
 * replace them); `overwrite` applies to all files.
 */
export function planUploads(
  sources: UploadSource[],
  dest: string,
  options: { overwrite: boolean; skip?: Iterable<string> },
): UploadJob[] {
  const skip = new Set(options.skip ?? []);
  const dirs = new Set<string>();
  const files: UploadJob[] = [];
  for (const s of sources) {
    const segs = s.path.split("/").filter((x) => x !== "" && x !== "." && x !== "..");
    if (segs.length === 0 || skip.has(segs[0])) continue;
    const dirSegs = s.isDir ? segs : segs.slice(0, -1);
    for (let i = 1; i <= dirSegs.length; i++) dirs.add(dirSegs.slice(0, i).join("/"));
    if (!s.isDir && s.file) {
      files.push({
        kind: "file",
        path: joinDest(dest, segs.join("/")),
        file: s.file,
        overwrite: options.overwrite,
      });
    }
  }
  const dirJobs: UploadJob[] = [...dirs].sort((a, b) =>
    a.split("/").length - b.split("/").length || a.localeCompare(b)
  )
    .map((d) => ({ kind: "dir", path: `${joinDest(dest, d)}/` }));
  return [...dirJobs, ...files];
}

/** Sources from an `<input type=file>` (folder picks carry `webkitRelativePath`). */
export function sourcesFromFiles(
  files: Iterable<UploadBlob & { webkitRelativePath?: string; name: string }>,
): UploadSource[] {
  return [...files].map((f) => ({ path: f.webkitRelativePath || f.name, isDir: false, file: f }));
}

/** The FileSystemEntry surface walked on drop (injectable for tests). */
export interface EntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?(ok: (f: UploadBlob & { name: string }) => void, fail?: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: EntryLike[]) => void, fail?: (e: unknown) => void): void };
}

async function readAll(reader: ReturnType<NonNullable<EntryLike["createReader"]>>): Promise<EntryLike[]> {
  const out: EntryLike[] = [];
  // readEntries returns at most ~100 entries per call; an empty batch means the end.
  for (;;) {
    const batch = await new Promise<EntryLike[]>((ok, fail) => reader.readEntries(ok, fail));
    if (batch.length === 0) return out;
    out.push(...batch);
  }
}

/** Sources from dropped entries (`item.webkitGetAsEntry()`), folders walked recursively; empty folders kept. */
export async function sourcesFromEntries(entries: EntryLike[]): Promise<UploadSource[]> {
  const out: UploadSource[] = [];
  async function visit(entry: EntryLike, prefix: string): Promise<void> {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isFile && entry.file) {
      const file = await new Promise<UploadBlob & { name: string }>((ok, fail) => entry.file!(ok, fail));
      out.push({ path, isDir: false, file });
    } else if (entry.isDirectory && entry.createReader) {
      out.push({ path, isDir: true });
      for (const child of await readAll(entry.createReader())) await visit(child, path);
    }
  }
  for (const entry of entries) await visit(entry, "");
  return out;
}
