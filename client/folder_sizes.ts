// This module is browser-compatible.
/** Folder sizes computed on demand (client/api/foldersize.ts), remembered for the listing's Size column. */
import { signal } from "@preact/signals";
import type { FolderSize } from "../lib/types.ts";
import { fetchFolderSize } from "./api/foldersize.ts";

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
  const total = await fetchFolderSize(path, options);
  const next = new Map(folderSizes.value);
  next.set(folderKey(path), total);
  folderSizes.value = next;
  return total;
}
