// This module is browser-compatible.
/**
 * The upload flows of the files page: what was picked in the upload prompt or dropped on the
 * page is checked for name conflicts (the replace prompt asks: replace overwrites, continue skips what exists),
 * then handed to the page's upload queue.
 */
import { getResource, listRecursive } from "../api/resources.ts";
import { folderPath } from "../../lib/url_path.ts";
import { folderName } from "../file_ops.ts";
import { t } from "../hooks.ts";
import { showPrompt } from "../prompts.ts";
import { listing } from "../state.ts";
import { showError } from "../toasts.ts";
import type { User } from "../../lib/types.ts";
import { planUploads, sourcesFromEntries, sourcesFromFiles } from "./sources.ts";
import type { EntryLike, UploadSource } from "./sources.ts";
import { findConflicts, withoutConflicts } from "./ui_conflicts.ts";
import type { ConflictReaders } from "./ui_conflicts.ts";
import { loadQueue } from "./ui_queue.ts";

/** Uploading (prompt, drop) needs the create permission. */
export function canUpload(user: User | null): boolean {
  return !!user?.perm.create;
}

/** True when a drag carries files from outside the page (not rows of the listing). */
export function isFileDrag(data: DataTransfer | null | undefined): boolean {
  return !!data && [...data.types].includes("Files");
}

const folderOf = folderPath;

const readers: ConflictReaders = {
  async list(dir) {
    // The folder on screen is already known; any other one (a drop onto a folder row) is fetched.
    const current = listing.value;
    // Only a whole listing: the page may still be loading the rest of a big folder.
    const whole = (current?.items?.length ?? 0) >= (current?.numDirs ?? 0) + (current?.numFiles ?? 0);
    const items = current?.isDir && whole && folderOf(current.path) === dir
      ? current.items ?? []
      : (await getResource(dir)).items ?? [];
    return items;
  },
  listRecursive,
};

/** Uploads sources into the folder `dest`, asking with the replace prompt when some of them already exist. */
export async function uploadSources(sources: UploadSource[], dest: string): Promise<void> {
  if (sources.length === 0) return;
  const dir = folderOf(dest);
  const failed = t("upload.errors.failed", { name: folderName(dir) });
  // Load the queue (and tus) while the destination is checked; a failure is reported when the jobs are sent.
  const queue = loadQueue();
  queue.catch(() => undefined);
  let conflicts: Set<string>;
  try {
    conflicts = await findConflicts(sources, dir, readers);
  } catch (err) {
    showError(err, failed);
    return;
  }
  const send = (list: UploadSource[], overwrite: boolean) => {
    const jobs = planUploads(list, dir, { overwrite });
    queue.then((q) => q.enqueue(jobs), (err) => showError(err, failed));
  };
  if (conflicts.size === 0) {
    send(sources, false);
    return;
  }
  showPrompt("replace", {
    names: [...conflicts],
    folder: folderName(dir),
    onContinue: () => send(withoutConflicts(sources, conflicts), false),
    onReplace: () => send(sources, true),
  });
}

/** Uploads the files of an `<input type=file>` (a folder pick carries relative paths) into `dest`. */
export function uploadPicked(files: FileList | File[], dest: string): Promise<void> {
  return uploadSources(sourcesFromFiles([...files]), dest);
}

/**
 * Uploads what was dropped into `dest`. The entries are taken at once, because the DataTransfer is emptied when
 * the drop event ends; folders are then walked. A drop without entries (synthetic, or an old browser) uses the
 * plain file list.
 */
export function uploadDropped(data: DataTransfer, dest: string): Promise<void> {
  const items = [...data.items].filter((i) => i.kind === "file");
  const entries = items.map((i) => i.webkitGetAsEntry?.() ?? null);
  const files = [...data.files];
  const sources = entries.length > 0 && entries.every((e) => e !== null)
    ? sourcesFromEntries(entries as unknown as EntryLike[])
    : Promise.resolve(sourcesFromFiles(files));
  return sources.then(
    (list) => uploadSources(list, dest),
    (err) => showError(err, t("upload.errors.failed", { name: folderName(dest) })),
  );
}
