// This module is browser-compatible.
/** The open text editor, for other parts of the page (a Save button in the top bar, shortcuts). */
import { signal } from "@preact/signals";

/** What the open editor offers. */
export interface OpenEditor {
  path: string;
  readOnly: boolean;
  save(): void;
}

/** The open editor, or null when no text file is shown. */
export const editorState = signal<OpenEditor | null>(null);
