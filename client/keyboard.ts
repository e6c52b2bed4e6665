// This module is browser-compatible.
/** Keyboard shortcuts of the files page (the help card lists them); ignored while a prompt is open or typing. */
import { batch } from "@preact/signals";
import { headerActions } from "./actions.ts";
import type { ActionContext } from "./actions.ts";
import { download, paste, putOnClipboard } from "./file_ops.ts";
import { currentPrompt, showPrompt } from "./prompts.ts";
import { clearSelection, selectAll } from "./selection.ts";
import { clipboard, currentPath, listing, multiple, resource, selectedItems, user } from "./state.ts";
import { browserPage } from "./page.ts";

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

function textSelected(): boolean {
  const s = getSelection();
  return !!s && !s.isCollapsed && s.toString().length > 0;
}

function runAction(id: string): boolean {
  const u = user.value;
  if (!u || !browserPage) return false;
  const ctx: ActionContext = {
    user: u,
    config: browserPage.info.config,
    selected: selectedItems.value,
    listing: listing.value,
    path: currentPath.value,
  };
  const action = headerActions.value.find((a) => a.id === id);
  if (!action?.visible(ctx)) return false;
  action.run(ctx);
  return true;
}

/** Handles one keydown; returns true when it was a shortcut. */
export function handleShortcut(e: KeyboardEvent): boolean {
  if (currentPrompt.value || typing(e.target)) return false;
  const u = user.value;
  if (!u) return false;
  const ctrl = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const inListing = resource.value?.isDir === true;
  const selected = selectedItems.value;
  if (key === "F1") {
    showPrompt("help");
    return true;
  }
  if (!ctrl && key === "F2") return runAction("rename");
  if (!ctrl && key === "Delete") return runAction("delete");
  if (!ctrl && key === "Escape") {
    // Esc first drops the selection; with nothing selected it empties the clipboard.
    if (!selected.length && !multiple.value && clipboard.value) {
      clipboard.value = null;
      return true;
    }
    batch(() => {
      clearSelection();
      multiple.value = false;
    });
    return true;
  }
  if (!ctrl || !inListing) return false;
  switch (key) {
    case "a":
      selectAll();
      return true;
    case "c":
      if (textSelected() || !selected.length || !u.perm.create) return false;
      putOnClipboard(selected, { cut: false });
      return true;
    case "x":
      if (textSelected() || !selected.length || !u.perm.rename) return false;
      putOnClipboard(selected, { cut: true });
      return true;
    case "v":
      if (!clipboard.value || !u.perm.create || (clipboard.value.key === "x" && !u.perm.rename)) return false;
      void paste();
      return true;
    case "s":
      if (u.perm.download) download(selected, currentPath.value);
      return true;
    case "f":
      return runAction("search");
  }
  return false;
}

/** Installs the shortcuts on the document; returns the uninstaller. */
export function installShortcuts(): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (handleShortcut(e)) e.preventDefault();
  };
  addEventListener("keydown", onKey);
  return () => removeEventListener("keydown", onKey);
}
