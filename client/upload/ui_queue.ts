// This module is browser-compatible.
/**
 * The page's upload queue, loaded on first use: client/upload/mod.ts pulls in tus-js-client, which neither the
 * server (it renders the files page) nor the first paint needs. Once loaded, the leave warning is bound.
 */
import { signal } from "@preact/signals";
import { IS_BROWSER } from "../page.ts";
import { bindLeaveWarning } from "./queue.ts";
import type { UploadQueue } from "./queue.ts";

/** The queue once loaded (null before the first upload); the panel renders from it. */
export const loadedQueue = signal<UploadQueue | null>(null);

let loading: Promise<UploadQueue> | null = null;

/** Loads the page's upload queue (once) and warns before leaving the page while it uploads. */
export function loadQueue(): Promise<UploadQueue> {
  loading ??= import("./mod.ts").then(({ uploadQueue }) => {
    if (IS_BROWSER) bindLeaveWarning(uploadQueue, window);
    loadedQueue.value = uploadQueue;
    return uploadQueue;
  });
  return loading;
}
