// This module is browser-compatible.
/**
 * The page's upload queue, wired to the browser: tus (or a plain POST where tus is unsupported) with the
 * startup config's TusSettings, folder creation through the API, a listing reload when the queue empties and
 * an error toast per failed job. Islands import `uploadQueue` and render its signals.
 */
import { isSupported as tusSupported } from "tus-js-client";
import { createFolder } from "../api/resources.ts";
import { baseUrl, browserPage, IS_BROWSER } from "../page.ts";
import { t } from "../hooks.ts";
import { showPrompt } from "../prompts.ts";
import { getToken } from "../session.ts";
import { requestReload } from "../state.ts";
import { showError, showSuccess } from "../toasts.ts";
import { createUploadQueue } from "./queue.ts";
import type { UploadQueue } from "./queue.ts";
import { createTusUploader, StorageUrlStorage } from "./tus.ts";
import type { RecordStorage } from "./tus.ts";
import { createXhrUploader } from "./xhr.ts";

export { bindLeaveWarning, MAX_CONCURRENT_UPLOADS } from "./queue.ts";
export type { UploadItem, UploadJob, UploadQueue } from "./queue.ts";
export { formatEta } from "./metrics.ts";
export type { UploadType } from "./metrics.ts";
export {
  conflictingNames,
  planUploads,
  sourcesFromEntries,
  sourcesFromFiles,
  topLevelNames,
} from "./sources.ts";
export type { EntryLike, UploadSource } from "./sources.ts";

function recordStorage(): RecordStorage {
  try {
    if (IS_BROWSER && typeof localStorage !== "undefined") return localStorage;
  } catch {
    // Storage disabled (privacy mode): uploads still work, they just cannot resume after a reload.
  }
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

function createPageQueue(): UploadQueue {
  const apiBase = IS_BROWSER ? `${location.origin}${baseUrl()}` : "";
  const uploader = tusSupported
    ? createTusUploader({
      settings: browserPage?.info.config.TusSettings ?? null,
      baseUrl: apiBase,
      getToken,
      storage: new StorageUrlStorage(recordStorage()),
    })
    : createXhrUploader({ baseUrl: apiBase, getToken });
  return createUploadQueue({
    uploader,
    createDir: (path) => createFolder(path),
    onFinished: (summary) => {
      if (!summary.failed && !summary.aborted && summary.folders > 0) {
        // A whole folder arrived: a card the user closes, not a toast that is gone in a second.
        const message = t("prompts.success.folderUploaded", {
          files: summary.uploaded,
          folders: summary.folders,
        });
        showPrompt("success", { message });
      } else if (summary.uploaded > 0 && !summary.failed && !summary.aborted) {
        showSuccess(t("files.toast.uploaded", { n: summary.uploaded }));
      }
      requestReload();
    },
    onError: (err, item) => showError(err, t("upload.errors.failed", { name: item.name })),
  });
}

/** The upload queue of this page. */
export const uploadQueue: UploadQueue = createPageQueue();
