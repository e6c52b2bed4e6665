// This module is browser-compatible.
/**
 * The unsaved-changes guard: while some editor has unsaved text, leaving the page asks first. Covers closing or
 * reloading the tab (beforeunload) and in-app links (a capture-phase click listener runs before the router's).
 */

/** Something that may hold unsaved work; `message` is the already translated question. */
export interface DirtySource {
  isDirty(): boolean;
  message: string;
}

const sources = new Set<DirtySource>();
let installed = false;

/** The question to ask before leaving, or null when nothing is unsaved. */
export function pendingLeaveMessage(): string | null {
  for (const s of sources) if (s.isDirty()) return s.message;
  return null;
}

/** Asks the user (native confirm) whether to leave with unsaved changes; true when leaving is fine. */
export function confirmLeave(): boolean {
  const message = pendingLeaveMessage();
  return message === null || globalThis.confirm(message);
}

function onBeforeUnload(e: BeforeUnloadEvent): void {
  if (pendingLeaveMessage() === null) return;
  e.preventDefault();
  // Older browsers need returnValue set to show the dialog.
  e.returnValue = "";
}

function onClick(e: MouseEvent): void {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const link = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
  if (!link || link.target === "_blank" || link.hasAttribute("download")) return;
  const url = new URL(link.href, location.href);
  if (
    url.origin !== location.origin || (url.pathname === location.pathname && url.search === location.search)
  ) {
    return;
  }
  if (confirmLeave()) return;
  // Stay: the router's own click handler must not run either.
  e.preventDefault();
  e.stopPropagation();
}

/** Registers a source of unsaved work; returns the function that removes it. */
export function guardUnsaved(source: DirtySource): () => void {
  if (!installed && typeof document !== "undefined") {
    installed = true;
    addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
  }
  sources.add(source);
  return () => sources.delete(source);
}
