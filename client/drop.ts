// This module is browser-compatible.
/**
 * The public side of upload-only share links (docs/api.md#file-drop-links): the link's limits, and tus
 * uploads of dropped files with tus-js-client (the retry schedule and error texts of the app's uploader).
 */
import * as tusClient from "tus-js-client";
import { ApiError } from "./api.ts";
import { baseUrl } from "./page.ts";
import { fetchPublicShare, type PublicResource } from "./share.ts";
import { retryDelays, shouldRetry, uploadErrorOf } from "./upload/tus.ts";

/** GET /api/public/tus/<hash>: what the drop page shows. */
export interface DropInfo {
  name: string;
  maxFileSize: number;
  maxFiles: number;
  /** Files that may still be uploaded (null: no limit). */
  remaining: number | null;
}

/** A public share answer, or the limits of a drop link (whose listing answers 404). */
export type ShareOrDrop = PublicResource & { drop?: DropInfo };

/** Chunk size of drop uploads (visitors do not get the settings). */
const CHUNK_SIZE = 10 * 1024 * 1024;

function dropUrl(hash: string, name = ""): string {
  return `${baseUrl()}/api/public/tus/${encodeURIComponent(hash)}${
    name ? "/" + encodeURIComponent(name) : ""
  }`;
}

/** The share at `sub`, or for a drop link its limits; throws ApiError (401 = password needed or wrong). */
export async function fetchShareOrDrop(hash: string, sub: string, password: string): Promise<ShareOrDrop> {
  try {
    return await fetchPublicShare(hash, sub, password);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404 || sub !== "/") throw err;
  }
  const res = await fetch(dropUrl(hash), { headers: { "X-SHARE-PASSWORD": encodeURIComponent(password) } })
    .catch(() => null);
  if (!res) throw new ApiError(0, "000 No connection");
  if (!res.ok) {
    await res.body?.cancel();
    throw new ApiError(404, "404 Not Found");
  }
  const drop = await res.json() as DropInfo;
  return { drop, name: drop.name, path: "/", isDir: true } as ShareOrDrop;
}

/** Uploads one file into a drop link; resolves when it is in place, rejects with an UploadError. */
export function uploadToDrop(
  hash: string,
  password: string,
  file: File,
  onProgress: (sent: number, total: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const upload = new tusClient.Upload(file, {
      endpoint: dropUrl(hash, file.name),
      chunkSize: CHUNK_SIZE,
      retryDelays: retryDelays(5),
      headers: { "X-SHARE-PASSWORD": encodeURIComponent(password) },
      // Each drop creates a new file: nothing to resume from another visit.
      storeFingerprintForResuming: false,
      onShouldRetry: (err) =>
        shouldRetry(err.originalResponse?.getStatus() ?? 0, { online: navigator.onLine !== false }),
      onProgress,
      onError: (err) => reject(uploadErrorOf(err)),
      onSuccess: () => resolve(),
    });
    upload.start();
  });
}
