// This module is browser-compatible.
/**
 * The public side of upload-only share links (docs/api.md#file-drop-links): tus uploads of dropped files with
 * tus-js-client (the retry schedule and error texts of the app's uploader). The link's limits are read by
 * `fetchShareOrDrop` (client/api/public_share.ts). tus-js-client is loaded on the first upload: the server
 * renders the drop page's island too, and tus-js-client's Node build would load Node's http, https, stream and
 * fs layers into the server at start (some MiB of memory) for code that only ever runs in the browser.
 */
import { dropUrl } from "./api/public_share.ts";

/** Chunk size of drop uploads (visitors do not get the settings). */
const CHUNK_SIZE = 10 * 1024 * 1024;

/** Uploads one file into a drop link; resolves when it is in place, rejects with an UploadError. */
export async function uploadToDrop(
  hash: string,
  password: string,
  file: File,
  onProgress: (sent: number, total: number) => void,
): Promise<void> {
  const [tusClient, { retryDelays, shouldRetry, uploadErrorOf }] = await Promise.all([
    import("tus-js-client"),
    import("./upload/tus.ts"),
  ]);
  return await new Promise((resolve, reject) => {
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
