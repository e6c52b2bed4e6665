// This module is browser-compatible.
/**
 * The shared browser store: one set of signals that every island of a page reads and writes (islands are bundled
 * together, so this module is a single instance per page). During a server render these keep their empty defaults;
 * per-request data reaches components through client/hooks.ts instead.
 */
import { computed, signal } from "@preact/signals";
import type { Resource, User } from "../lib/types.ts";
import { browserPage } from "./page.ts";

/** The logged-in user (wire shape), updated when preferences change or the token is renewed. */
export const user = signal<User | null>(browserPage?.info.user ?? null);

/** The vpath shown by the files page, e.g. "/docs/" for a folder or "/docs/a.txt" for a file. */
export const currentPath = signal<string>("/");

/** The resource fetched for `currentPath` (folder with items, or a file); null while loading or on error. */
export const resource = signal<Resource | null>(null);

/** The last folder listing shown (kept while a file is open, so closing a preview needs no refetch). */
export const listing = signal<Resource | null>(null);

/** True while the files page fetches `currentPath`. */
export const loading = signal<boolean>(false);

/** HTTP status of the failed fetch of `currentPath` (0 = no connection), or null. */
export const loadError = signal<number | null>(null);

/** Bump to make the files page refetch the current path (after uploads, copies, deletes...). */
export const reloadTick = signal<number>(0);

/** Requests a reload of the current listing. */
export function requestReload(): void {
  reloadTick.value++;
}

/** The items of the current folder, in display order (the server's, folders first: client/display_order.ts). */
export const items = computed<Resource[]>(() => listing.value?.items ?? []);

/** Selected items, by item path. Rows subscribe to their own membership only (see islands/files/Row.tsx). */
export const selection = signal<ReadonlySet<string>>(new Set());

/** Multiple-selection mode (touch and the header toggle): a click toggles instead of replacing. */
export const multiple = signal<boolean>(false);

/** Index of the focused row of the listing (keyboard focus, the anchor for shift ranges), -1 for none. */
export const focusIndex = signal<number>(-1);

/** Where the listing's context menu is open (viewport coordinates), or null when closed. */
export const contextMenuAt = signal<{ x: number; y: number } | null>(null);

/** The item a closed preview came from: the listing focuses it again when it has loaded. */
export const returnFocus = signal<string | null>(null);

/** Items of the current folder by path. */
export const itemsByPath = computed(() => new Map(items.value.map((i) => [i.path, i])));

/** The selected items, in listing order of selection. */
export const selectedItems = computed<Resource[]>(() => {
  // Nothing selected (the common case) must not build the path map of a 100k listing.
  if (selection.value.size === 0) return [];
  // Everything selected (Ctrl+A): the listing itself, without building the path map.
  if (selection.value.size === items.value.length) return items.value;
  const map = itemsByPath.value;
  const out: Resource[] = [];
  for (const p of selection.value) {
    const item = map.get(p);
    if (item) out.push(item);
  }
  return out;
});

/** One entry of the clipboard. */
export interface ClipboardItem {
  from: string;
  name: string;
}

/** Cut ("x") or copied ("c") items waiting for a paste. */
export interface Clipboard {
  key: "c" | "x";
  items: ClipboardItem[];
  /** The folder they were taken from. */
  path: string;
}

/** The clipboard, or null when empty. */
export const clipboard = signal<Clipboard | null>(null);
