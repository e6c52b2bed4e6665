// This module is browser-compatible.
/**
 * File operations of the listing: create, rename, delete, copy/move with the conflict flow,
 * clipboard cut/copy/paste, downloads, and saving the view mode and sorting on the user.
 */
import { trackButton } from "./button_state.ts";
import * as api from "./api/mod.ts";
import { joinPath, parentPath } from "../lib/url_path.ts";
import { filesUrl } from "./page.ts";
import type { Resource, Sorting } from "../lib/types.ts";
import { t } from "./hooks.ts";
import { showPrompt } from "./prompts.ts";
import { navigate } from "./router.ts";
import { clipboard, currentPath, listing, requestReload, user } from "./state.ts";
import { clearSelection } from "./selection.ts";
import { showError, showErrors, showSuccess } from "./toasts.ts";

/** Something to copy or move: its vpath and name. */
export interface TransferItem {
  path: string;
  name: string;
}

async function settle(
  items: readonly TransferItem[],
  run: (item: TransferItem) => Promise<void>,
  failKey: string,
): Promise<boolean> {
  const results = await Promise.allSettled(items.map(run));
  const failed = results.flatMap((r, i) =>
    r.status === "rejected" ? [{ err: r.reason, action: t(failKey, { name: items[i].name }) }] : []
  );
  showErrors(failed);
  return failed.length === 0;
}

/** Deletes items in parallel, then reloads the listing (also after errors). */
export async function deleteItems(
  items: readonly TransferItem[],
  options: { permanent?: boolean } = {},
): Promise<boolean> {
  const ok = await trackButton(
    "delete",
    settle(items, (i) => api.deleteResource(i.path, options), "files.errors.delete"),
  );
  clearSelection();
  requestReload();
  return ok;
}

/** The name of the folder `dir` as the page shows it ("My files" for the root). */
export function folderName(dir: string): string {
  return dir.split("/").filter(Boolean).pop() ?? t("sidebar.myFiles");
}

async function namesIn(dir: string): Promise<Set<string>> {
  const current = listing.value;
  // Only a whole listing: the page may still be loading the rest of a big folder.
  const whole = current && (current.items?.length ?? 0) >= (current.numDirs ?? 0) + (current.numFiles ?? 0);
  if (whole && current.path.replace(/\/*$/, "/") === dir) {
    return new Set((current.items ?? []).map((i) => i.name));
  }
  const res = await api.getResource(dir);
  return new Set((res.items ?? []).map((i) => i.name));
}

/**
 * Copies or moves items into a folder, asking how to resolve name conflicts (replace-rename prompt). Afterwards the
 * view opens the destination (user preference `redirectAfterCopyMove`) unless `stay` (drag and drop) is set.
 */
export async function transferItems(
  items: readonly TransferItem[],
  dest: string,
  action: "copy" | "move",
  flow: { stay?: boolean; pasted?: boolean } = {},
): Promise<void> {
  const dir = dest.replace(/\/*$/, "/");
  const sameDir = items.every((i) => parentPath(i.path) === dir);
  if (action === "move" && sameDir) return;
  const run = async (options: api.TransferOptions, list: readonly TransferItem[] = items) => {
    const fn = action === "copy" ? api.copyResource : api.moveResource;
    const ok = await trackButton(
      action,
      settle(
        list,
        (i) => fn(i.path, joinPath(dir, i.name), options),
        action === "copy" ? "files.errors.copy" : "files.errors.move",
      ),
    );
    clearSelection();
    if (ok) {
      const key = flow.pasted
        ? "files.toast.pasted"
        : action === "copy"
        ? "files.toast.copied"
        : "files.toast.moved";
      showSuccess(t(key, { n: list.length }));
    }
    if (ok && !sameDir && !flow.stay && user.value?.redirectAfterCopyMove && dir !== currentPath.value) {
      navigate(filesUrl(dir));
    } else {
      requestReload();
    }
  };
  // Copying into the same folder always makes a renamed copy.
  if (action === "copy" && sameDir) return run({ rename: true });
  let existing: Set<string>;
  try {
    existing = await namesIn(dir);
  } catch (err) {
    showError(
      err,
      t(action === "copy" ? "files.errors.copy" : "files.errors.move", { name: items[0]?.name ?? "" }),
    );
    return;
  }
  const clashing = items.filter((i) => existing.has(i.name));
  if (clashing.length) {
    const rest = items.filter((i) => !existing.has(i.name));
    showPrompt("replace-rename", {
      names: clashing.map((i) => i.name),
      folder: folderName(dir),
      onRename: () => run({ rename: true }),
      onSkip: rest.length ? () => run({}, rest) : undefined,
      onReplace: () => run({ override: true }),
    });
    return;
  }
  await run({});
}

/** Puts the selected items on the clipboard (`cut` moves them on paste). */
export function putOnClipboard(items: readonly Resource[], options: { cut: boolean }): void {
  if (!items.length) return;
  clipboard.value = {
    key: options.cut ? "x" : "c",
    items: items.map((i) => ({ from: i.path, name: i.name })),
    path: currentPath.value,
  };
}

/** Pastes the clipboard into the current folder; a cut clears the clipboard after the move. */
export async function paste(): Promise<void> {
  const clip = clipboard.value;
  if (!clip) return;
  const items = clip.items.map((i) => ({ path: i.from, name: i.name }));
  if (clip.key === "x") {
    if (parentPath(items[0].path) === currentPath.value) {
      clipboard.value = null;
      return;
    }
    await transferItems(items, currentPath.value, "move", { pasted: true });
    clipboard.value = null;
  } else {
    await transferItems(items, currentPath.value, "copy", { pasted: true });
  }
}

/** Creates a folder in `dir`; by default the view then opens it. */
export async function createFolder(
  dir: string,
  name: string,
  options: { redirect?: boolean } = {},
): Promise<boolean> {
  const path = joinPath(dir, name.trim());
  try {
    await api.createFolder(path);
  } catch (err) {
    showError(err, t("files.errors.newFolder", { name: name.trim() }));
    return false;
  }
  if (options.redirect ?? true) navigate(filesUrl(path, { isDir: true }));
  else requestReload();
  return true;
}

/** Creates an empty file in `dir` and opens it. */
export async function createFile(dir: string, name: string): Promise<boolean> {
  const path = joinPath(dir, name.trim());
  try {
    await api.createFile(path);
  } catch (err) {
    showError(err, t("files.errors.newFile", { name: name.trim() }));
    return false;
  }
  navigate(filesUrl(path));
  return true;
}

/** Renames an item inside its folder. */
export async function renameItem(item: TransferItem, newName: string): Promise<boolean> {
  const name = newName.trim();
  if (!name || name === item.name) return true;
  try {
    await trackButton("rename", api.moveResource(item.path, joinPath(parentPath(item.path), name)));
  } catch (err) {
    showError(err, t("files.errors.rename", { name: item.name }));
    return false;
  }
  clearSelection();
  requestReload();
  return true;
}

/** Starts a download of `url` without leaving the page (the `auth` cookie authenticates it). */
export function startDownload(url: string): void {
  // A plain navigation to an attachment keeps the page.
  const a = document.createElement("a");
  a.href = url;
  a.download = "";
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
}

/** Downloads one file directly, or asks for an archive format for folders and several items. */
export function download(items: readonly Resource[], dir: string): void {
  if (items.length === 1 && !items[0].isDir) {
    startDownload(api.rawUrl(items[0].path));
    return;
  }
  showPrompt("download", {
    onFormat: (algo: string) => {
      const names = items.length ? items.map((i) => i.name) : [];
      // One folder is downloaded as itself, several items as a selection of their folder.
      const url = items.length === 1
        ? api.archiveUrl(items[0].path, [], algo)
        : api.archiveUrl(dir, names, algo);
      startDownload(url);
    },
  });
}

/** The next view mode in the cycle list → mosaic → mosaic gallery → list. */
export function nextViewMode(mode: string): string {
  return mode === "list" ? "mosaic" : mode === "mosaic" ? "mosaic gallery" : "list";
}

/** Saves the view mode on the user (the listing re-renders at once). */
export async function saveViewMode(mode: string): Promise<void> {
  const u = user.value;
  if (!u) return;
  user.value = { ...u, viewMode: mode };
  await api.updateUser(u.id, ["viewMode"], { viewMode: mode }).catch((err) => showError(err));
}

/**
 * Sorts by a column, saves it on the user and reloads the listing. A new column starts with `asc: false` (names
 * A→Z, largest and newest first); a click on the active column flips it.
 */
export async function saveSorting(by: Sorting["by"]): Promise<void> {
  const u = user.value;
  if (!u) return;
  // The user's sorting is updated at once, so quick successive clicks build on each other.
  const current = u.sorting;
  const sorting = { by, asc: current.by === by ? !current.asc : false };
  user.value = { ...u, sorting };
  try {
    await api.updateUser(u.id, ["sorting"], { sorting });
  } catch (err) {
    showError(err);
  }
  requestReload();
}
