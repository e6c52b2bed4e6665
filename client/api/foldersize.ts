// This module is browser-compatible.
/** Folder sizes: `GET /api/foldersize<path>`, an NDJSON stream of progress events and the total. */
import type { FolderSize, FolderSizeEvent } from "../../lib/types.ts";
import { encodePath } from "../../lib/url_path.ts";
import { apiFetch } from "./http.ts";
import { ndjsonOf } from "./ndjson.ts";

/** Walks a folder on the server; `onProgress` sees the totals so far. Resolves with the final size. */
export async function fetchFolderSize(
  path: string,
  options: { onProgress?: (size: FolderSize) => void; signal?: AbortSignal } = {},
): Promise<FolderSize> {
  const res = await apiFetch(`/foldersize${encodePath(path)}`, { signal: options.signal });
  let total: FolderSize | null = null;
  for await (const event of ndjsonOf<FolderSizeEvent>(res)) {
    const size = { bytes: event.bytes, files: event.files, folders: event.folders };
    if (event.type === "progress") options.onProgress?.(size);
    else total = size;
  }
  if (total === null) throw new Error("folder size: the answer ended early");
  return total;
}
