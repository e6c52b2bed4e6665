// This module is browser-compatible.
/** Folder sizes computed on demand (GET /api/foldersize), remembered for the listing's Size column. */
import { signal } from "@preact/signals";
import type { FolderSize, FolderSizeEvent } from "../lib/types.ts";
import { apiFetch, encodePath } from "./api.ts";
import { ndjson } from "./search.ts";

/** Known folder sizes by vpath (without trailing slash). */
export const folderSizes = signal<ReadonlyMap<string, FolderSize>>(new Map());

/** The key of a folder in {@link folderSizes}. */
export function folderKey(path: string): string {
  return path.replace(/\/+$/, "") || "/";
}

/** Walks a folder on the server; `onProgress` sees the totals so far. Resolves with the final size. */
export async function measureFolderSize(
  path: string,
  options: { onProgress?: (size: FolderSize) => void; signal?: AbortSignal } = {},
): Promise<FolderSize> {
  const res = await apiFetch(`/foldersize${encodePath(path)}`, { signal: options.signal });
  let total: FolderSize | null = null;
  for await (const event of ndjson<FolderSizeEvent>(res.body!)) {
    const size = { bytes: event.bytes, files: event.files, folders: event.folders };
    if (event.type === "progress") options.onProgress?.(size);
    else total = size;
  }
  if (total === null) throw new Error("folder size: the answer ended early");
  const next = new Map(folderSizes.value);
  next.set(folderKey(path), total);
  folderSizes.value = next;
  return total;
}
