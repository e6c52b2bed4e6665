// This module is browser-compatible.
/** Selection operations on the current listing: replace, toggle, ranges, all, none. */
import { batch } from "@preact/signals";
import { focusIndex, items, selection } from "./state.ts";

let anchor = -1;

/** Selects exactly one item. */
export function selectOnly(index: number): void {
  const item = items.value[index];
  if (!item) return;
  batch(() => {
    selection.value = new Set([item.path]);
    focusIndex.value = index;
  });
  anchor = index;
}

/** Adds or removes one item. */
export function toggleSelected(index: number): void {
  const item = items.value[index];
  if (!item) return;
  const next = new Set(selection.value);
  if (next.has(item.path)) next.delete(item.path);
  else next.add(item.path);
  batch(() => {
    selection.value = next;
    focusIndex.value = index;
  });
  anchor = index;
}

/** Selects the range from the anchor (last clicked item) to `index`; `add` keeps the rest of the selection. */
export function selectRange(index: number, options: { add?: boolean } = {}): void {
  const list = items.value;
  if (!list[index]) return;
  const from = anchor >= 0 && anchor < list.length ? anchor : index;
  const [lo, hi] = from < index ? [from, index] : [index, from];
  const next = new Set(options.add ? selection.value : []);
  for (let i = lo; i <= hi; i++) next.add(list[i].path);
  batch(() => {
    selection.value = next;
    focusIndex.value = index;
  });
}

/** Selects every item of the listing. */
export function selectAll(): void {
  selection.value = new Set(items.value.map((i) => i.path));
}

/** Clears the selection. */
export function clearSelection(): void {
  if (selection.value.size) selection.value = new Set();
}

/** Keeps only the selected paths that still exist (after the listing was replaced). */
export function pruneSelection(paths: ReadonlySet<string>): void {
  const kept = [...selection.value].filter((p) => paths.has(p));
  if (kept.length !== selection.value.size) selection.value = new Set(kept);
}

/** Sets the anchor for shift ranges without changing the selection. */
export function setAnchor(index: number): void {
  anchor = index;
}
