// This module is browser-compatible.
/**
 * The unsaved-changes guard: while some editor has unsaved text, leaving asks first. Covers closing or reloading
 * the tab and full page loads (beforeunload) and in-app navigation, back button included (the router's guards).
 */
import { leaveGuards } from "../router.ts";

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

/** Registers a source of unsaved work; returns the function that removes it. */
export function guardUnsaved(source: DirtySource): () => void {
  if (!installed && typeof document !== "undefined") {
    installed = true;
    addEventListener("beforeunload", onBeforeUnload);
    leaveGuards.add(confirmLeave);
  }
  sources.add(source);
  return () => sources.delete(source);
}
