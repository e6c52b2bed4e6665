// This module is browser-compatible.
/**
 * Views for a file (not a folder) shown by the files page: the preview and the editor register here
 * (`registerFileView({ id: "editor", match: (r) => r.type === "text", component: Editor })`). The first match wins;
 * without one the page shows a plain card with a download button.
 */
import { signal } from "@preact/signals";
import type { ComponentType } from "preact";
import type { Resource } from "../lib/types.ts";

/** A view for files. */
export interface FileView {
  id: string;
  match(resource: Resource): boolean;
  component: ComponentType<{ resource: Resource }>;
}

/** Registered file views, in registration order. */
export const fileViews = signal<readonly FileView[]>([]);

/** Adds a file view (one with the same id is replaced). */
export function registerFileView(view: FileView): void {
  fileViews.value = [...fileViews.value.filter((v) => v.id !== view.id), view];
}
