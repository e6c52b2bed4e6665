// This module is browser-compatible.
/**
 * Dropping files and folders from outside the page: onto the listing uploads into the current
 * folder, onto a folder row into that folder, never onto a folder that is itself selected, and only with the
 * create permission. Listens on the window, so rows need no handlers of their own and the listing's own drag
 * and drop (moving rows) is left alone.
 */
import { useEffect, useState } from "react";
import { currentPrompt } from "../../client/prompts.ts";
import { currentPath, items, listing, resource, selection } from "../../client/state.ts";
import { isFileDrag, uploadDropped } from "../../client/upload/ui.ts";

/** Where a drop would go. */
export interface DropTarget {
  /** Destination folder (trailing slash). */
  dest: string;
  /** Its display name ("" for the root). */
  name: string;
  /** Over a folder row rather than the listing itself. */
  onRow: boolean;
  /** The drop is refused (a selected folder). */
  refused: boolean;
}

const ROW_CLASS = "drop-target";

function targetOf(e: DragEvent): { target: DropTarget; row: HTMLElement | null } | null {
  // Only a folder listing takes drops, and not while a prompt covers it.
  if (!resource.value?.isDir || currentPrompt.value) return null;
  const hit = (e.target as Element | null)?.closest?.('[data-testid="listing"] [data-index]');
  const row = hit instanceof HTMLElement ? hit : null;
  const item = row ? items.value[Number(row.dataset.index)] : undefined;
  if (row && item?.isDir) {
    const refused = selection.value.has(item.path);
    return { target: { dest: `${item.path}/`, name: item.name, onRow: true, refused }, row };
  }
  const dest = currentPath.value.replace(/\/*$/, "/");
  return { target: { dest, name: listing.value?.name ?? "", onRow: false, refused: false }, row: null };
}

function same(a: DropTarget | null, b: DropTarget | null): boolean {
  return a === b || (!!a && !!b && a.dest === b.dest && a.refused === b.refused && a.onRow === b.onRow);
}

/**
 * Handles file drops on the page (refused unless `enabled`); returns where a drop would go while files are
 * dragged over the page, or null.
 */
export function useFileDrop(options: { enabled: boolean }): DropTarget | null {
  const [target, setTarget] = useState<DropTarget | null>(null);
  useEffect(() => {
    // dragenter/dragleave fire for every element crossed; the page is left when they balance out.
    let depth = 0;
    let marked: HTMLElement | null = null;
    let shown: DropTarget | null = null;
    const mark = (row: HTMLElement | null) => {
      if (marked === row) return;
      marked?.classList.remove(ROW_CLASS);
      row?.classList.add(ROW_CLASS);
      marked = row;
    };
    const show = (next: DropTarget | null) => {
      if (same(shown, next)) return;
      shown = next;
      setTarget(next);
    };
    const reset = () => {
      depth = 0;
      mark(null);
      show(null);
    };
    const onOver = (e: DragEvent) => {
      if (!isFileDrag(e.dataTransfer)) return;
      // Always cancel: an unhandled file drop would make the browser navigate away to the file.
      e.preventDefault();
      const found = options.enabled ? targetOf(e) : null;
      const ok = !!found && !found.target.refused;
      e.dataTransfer!.dropEffect = ok ? "copy" : "none";
      mark(ok ? found!.row : null);
      show(found?.target ?? null);
    };
    const onEnter = (e: DragEvent) => {
      if (!isFileDrag(e.dataTransfer)) return;
      depth++;
      onOver(e);
    };
    const onLeave = (e: DragEvent) => {
      if (!isFileDrag(e.dataTransfer)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) reset();
    };
    const onDrop = (e: DragEvent) => {
      if (!isFileDrag(e.dataTransfer)) return;
      e.preventDefault();
      const found = options.enabled ? targetOf(e) : null;
      reset();
      if (!found || found.target.refused) return;
      void uploadDropped(e.dataTransfer!, found.target.dest);
    };
    addEventListener("dragenter", onEnter);
    addEventListener("dragover", onOver);
    addEventListener("dragleave", onLeave);
    addEventListener("drop", onDrop);
    addEventListener("dragend", reset);
    return () => {
      removeEventListener("dragenter", onEnter);
      removeEventListener("dragover", onOver);
      removeEventListener("dragleave", onLeave);
      removeEventListener("drop", onDrop);
      removeEventListener("dragend", reset);
      reset();
    };
  }, [options.enabled]);
  return target;
}
