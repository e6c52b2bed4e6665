// This module is browser-compatible.
/** Hooks of the preview: the folder's items for previous/next, auto-hiding arrows, a window key listener. */
import { useEffect, useRef, useState } from "preact/hooks";
import { getResource } from "../../client/api/mod.ts";
import { listing } from "../../client/state.ts";
import type { Resource } from "../../lib/types.ts";

/** The navigation arrows hide after this long without pointer movement (as in filebrowser). */
export const NAV_HIDE_MS = 1500;
/** Pointer movement shows the arrows at most this often. */
export const NAV_TRIGGER_MS = 500;

/** Parent listings fetched for files opened directly (folder vpath → items). */
const parentItems = new Map<string, Resource[]>();

function knownItems(dir: string): Resource[] | null {
  const l = listing.value;
  if (l && l.path.replace(/\/*$/, "/") === dir && l.items) return l.items;
  return parentItems.get(dir) ?? null;
}

/** Drops a deleted file from the remembered items of its folder. */
export function forgetItem(dir: string, path: string): void {
  const items = knownItems(dir);
  if (items) parentItems.set(dir, items.filter((i) => i.path !== path));
}

/** The items of a folder (from the last listing, a cache, or fetched); null while unknown. */
export function useFolderItems(dir: string, path: string): Resource[] | null {
  const [items, setItems] = useState<Resource[] | null>(() => knownItems(dir));
  useEffect(() => {
    const known = knownItems(dir);
    setItems(known);
    if (known) return;
    let live = true;
    getResource(dir).then((r) => {
      parentItems.set(dir, r.items ?? []);
      if (live) setItems(r.items ?? []);
    }, () => live && setItems([]));
    return () => {
      live = false;
    };
  }, [dir, path]);
  return items;
}

/** Arrows that show on pointer movement (at most every 0.5 s) and hide 1.5 s later unless hovered. */
export function useAutoHide(): { visible: boolean; poke: () => void; hold: () => void } {
  const [visible, setVisible] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const last = useRef(0);
  useEffect(() => {
    timer.current = setTimeout(() => setVisible(false), NAV_HIDE_MS);
    return () => clearTimeout(timer.current);
  }, []);
  return {
    visible,
    poke() {
      const now = Date.now();
      if (now - last.current < NAV_TRIGGER_MS) return;
      last.current = now;
      setVisible(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setVisible(false), NAV_HIDE_MS);
    },
    hold: () => clearTimeout(timer.current),
  };
}

/** Calls the latest `handler` for every keydown on the window while mounted. */
export function useWindowKeys(handler: (e: KeyboardEvent) => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => ref.current(e);
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
}
