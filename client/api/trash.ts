// This module is browser-compatible.
/** The trash: `/api/trash` (list, restore, purge). */
import type { TrashItem } from "../../lib/types.ts";
import { apiFetch, apiJson } from "./http.ts";
import type { TransferOptions } from "./resources.ts";

/** The user's trashed items, newest first. */
export function listTrash(): Promise<TrashItem[]> {
  return apiJson<TrashItem[]>("/trash");
}

/** Restores a trashed item (409 when its place is taken, unless `override` or `rename`). */
export async function restoreTrashItem(id: string, options: TransferOptions = {}): Promise<void> {
  const query = `override=${!!options.override}&rename=${!!options.rename}`;
  await apiFetch(`/trash/${encodeURIComponent(id)}?${query}`, { method: "POST" });
}

/** Removes one trashed item for good, or all of them without an id. */
export async function purgeTrashItems(id?: string): Promise<void> {
  await apiFetch(id ? `/trash/${encodeURIComponent(id)}` : "/trash", { method: "DELETE" });
}
