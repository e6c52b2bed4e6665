// This module is browser-compatible.
/**
 * Pointer, keyboard and drag-and-drop handling of the listing, delegated on the listbox (one set of handlers
 * for any number of rows): filebrowser's selection rules, arrow-key focus, long-press on touch, drag to move.
 */
import { useEffect, useRef } from "react";
import { effect } from "@preact/signals";
import { prompts } from "../../client/prompts.ts";
import type { RefObject } from "preact";
import { filesUrl } from "../../client/page.ts";
import { transferItems } from "../../client/file_ops.ts";
import { navigate } from "../../client/router.ts";
import { selectOnly, selectRange, setAnchor, toggleSelected } from "../../client/selection.ts";
import { contextMenuAt, focusIndex, multiple, selectedItems, selection } from "../../client/state.ts";
import type { Resource, User } from "../../lib/types.ts";
import type { WindowState } from "./use_window.ts";

/** The double click/tap window in milliseconds. */
export const DOUBLE_CLICK_MS = 300;
const LONG_PRESS_MS = 500;
const DRAG_TYPE = "application/x-filebrowser-items";
/** Height covered by the sticky top bar and column header, kept clear when scrolling a row into view. */
const STICKY_TOP = 104;

/** Opens an item: folders in the listing, files in the file view. */
export function openItem(item: Resource): void {
  navigate(filesUrl(item.path, { isDir: item.isDir }));
}

const isRtl = () => document.documentElement.dir === "rtl";

function indexOf(target: EventTarget | null): number {
  const row = (target as Element | null)?.closest?.("[data-index]");
  return row ? Number((row as HTMLElement).dataset.index) : -1;
}

/** Inputs of useListingEvents. */
export interface ListingEventsOptions {
  items: Resource[];
  win: WindowState;
  listRef: RefObject<HTMLElement | null>;
  user: User | null;
}

/** The event handlers to spread on the listbox. */
export function useListingEvents(o: ListingEventsOptions) {
  const opts = useRef(o);
  opts.current = o;
  const last = useRef({ index: -1, at: 0 });
  const lastPointer = useRef("");
  // Two clicks count as a double click only without anything in between (a prompt opened, a key pressed).
  useEffect(() =>
    effect(() => {
      prompts.value;
      last.current = { index: -1, at: 0 };
    }), []);
  const press = useRef<{ timer: ReturnType<typeof setTimeout> | undefined; fired: boolean }>({
    timer: undefined,
    fired: false,
  });

  /** The item at `index` joins the selection unless it is in: alone (the menu and a drag act on the selection). */
  const selectUnlessIn = (index: number) => {
    const item = opts.current.items[index];
    if (item && !selection.value.has(item.path)) selectOnly(index);
  };

  const reveal = (index: number) => {
    const { win, listRef } = opts.current;
    const el = listRef.current;
    if (!el) return;
    const top = el.getBoundingClientRect().top + scrollY + Math.floor(index / win.cols) * win.rowH;
    if (top < scrollY + STICKY_TOP) scrollTo({ top: top - STICKY_TOP });
    else if (top + win.rowH > scrollY + innerHeight) scrollTo({ top: top + win.rowH - innerHeight });
  };

  const moveFocus = (index: number, extend: boolean) => {
    const n = opts.current.items.length;
    if (!n) return;
    const i = Math.max(0, Math.min(n - 1, index));
    if (extend) selectRange(i);
    else {
      focusIndex.value = i;
      setAnchor(i);
    }
    reveal(i);
  };

  const onClick = (e: MouseEvent) => {
    const index = indexOf(e.target);
    const item = opts.current.items[index];
    if (!item) return;
    if (press.current.fired) {
      // The click that ends a long press must not undo its selection.
      press.current.fired = false;
      return;
    }
    const now = Date.now();
    const double = last.current.index === index && now - last.current.at < DOUBLE_CLICK_MS;
    last.current = { index, at: now };
    const onCheck = !!(e.target as Element).closest(".check");
    // A tap opens, as in every mobile file app; a long press or the select-multiple mode selects.
    const touch = (e as PointerEvent).pointerType === "touch" || lastPointer.current === "touch";
    if (touch && !multiple.value && !onCheck && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
      openItem(item);
      return;
    }
    if (e.shiftKey) selectRange(index, { add: e.ctrlKey || e.metaKey });
    else if (e.ctrlKey || e.metaKey || multiple.value || onCheck) toggleSelected(index);
    else if (opts.current.user?.singleClick || double) openItem(item);
    else selectOnly(index);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    // While a prompt is open its keys are its own: an Enter meant to confirm must never open the focused item.
    if (prompts.value.length > 0) return;
    last.current = { index: -1, at: 0 };
    const { items, win } = opts.current;
    const focus = focusIndex.value;
    const pageRows = Math.max(1, Math.floor((innerHeight - STICKY_TOP) / win.rowH));
    if (e.key === "ContextMenu" || (e.shiftKey && e.key === "F10")) {
      e.preventDefault();
      openMenuAtRow(focus);
      return;
    }
    let next = -1;
    switch (e.key) {
      case "ArrowDown":
        next = focus < 0 ? 0 : focus + win.cols;
        break;
      case "ArrowUp":
        next = focus < 0 ? 0 : focus - win.cols;
        break;
      case "ArrowRight":
      case "ArrowLeft":
        if (win.cols === 1) return;
        next = focus + ((e.key === "ArrowRight") !== isRtl() ? 1 : -1);
        break;
      case "PageDown":
        next = focus + pageRows * win.cols;
        break;
      case "PageUp":
        next = focus - pageRows * win.cols;
        break;
      case "Home":
        next = 0;
        break;
      case "End":
        next = items.length - 1;
        break;
      case " ":
        e.preventDefault();
        if (focus >= 0) toggleSelected(focus);
        return;
      case "Enter":
        if (focus >= 0 && items[focus]) {
          e.preventDefault();
          openItem(items[focus]);
        }
        return;
      default:
        return;
    }
    e.preventDefault();
    moveFocus(next, e.shiftKey);
  };

  const onFocus = (e: FocusEvent) => {
    if (e.target === opts.current.listRef.current && focusIndex.value < 0 && opts.current.items.length) {
      focusIndex.value = 0;
    }
  };

  /** Opens the context menu for the keyboard: below the focused row, which joins the selection if it is not in. */
  const openMenuAtRow = (index: number) => {
    selectUnlessIn(index);
    const rect = document.getElementById(`item-${index}`)?.getBoundingClientRect() ??
      opts.current.listRef.current?.getBoundingClientRect();
    if (!rect) return;
    contextMenuAt.value = { x: isRtl() ? Math.max(0, rect.right - 240) : rect.left + 40, y: rect.bottom };
  };

  const onContextMenu = (e: MouseEvent) => {
    e.preventDefault();
    // Touch opens the menu by a long press on a selected item (below); the keyboard by its keys (above).
    if (press.current.fired || (e as PointerEvent).pointerType === "touch" || e.button !== 2) return;
    selectUnlessIn(indexOf(e.target));
    contextMenuAt.value = { x: e.clientX, y: e.clientY };
  };

  const cancelPress = () => clearTimeout(press.current.timer);
  const onPointerDown = (e: PointerEvent) => {
    lastPointer.current = e.pointerType;
    if (e.pointerType !== "touch") return;
    const index = indexOf(e.target);
    if (index < 0) return;
    press.current.fired = false;
    const at = { x: e.clientX, y: e.clientY };
    press.current.timer = setTimeout(() => {
      press.current.fired = true;
      const item = opts.current.items[index];
      if (item && selection.value.has(item.path)) {
        // A long press on a selected item opens its actions.
        contextMenuAt.value = at;
        return;
      }
      // A long press selects and turns on multiple selection, as on phones.
      multiple.value = true;
      toggleSelected(index);
    }, LONG_PRESS_MS);
  };

  const onDragStart = (e: DragEvent) => {
    const index = indexOf(e.target);
    const item = opts.current.items[index];
    if (!item || !opts.current.user?.perm.rename || !e.dataTransfer) {
      e.preventDefault();
      return;
    }
    selectUnlessIn(index);
    e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(selectedItems.value.map((i) => i.path)));
    e.dataTransfer.effectAllowed = "move";
  };

  const dropTarget = (e: DragEvent): { row: HTMLElement; item: Resource } | null => {
    if (!e.dataTransfer?.types.includes(DRAG_TYPE)) return null;
    const row = (e.target as Element).closest?.("[data-index]") as HTMLElement | null;
    const item = row ? opts.current.items[Number(row.dataset.index)] : undefined;
    // Never onto a file, and never onto a folder that is itself being dragged.
    if (!row || !item?.isDir || selection.value.has(item.path)) return null;
    return { row, item };
  };

  const onDragOver = (e: DragEvent) => {
    const target = dropTarget(e);
    if (!target) return;
    e.preventDefault();
    e.dataTransfer!.dropEffect = "move";
    target.row.classList.add("drop-target");
  };

  const onDragLeave = (e: DragEvent) => {
    (e.target as Element).closest?.("[data-index]")?.classList.remove("drop-target");
  };

  const onDrop = (e: DragEvent) => {
    const target = dropTarget(e);
    if (!target) return;
    e.preventDefault();
    target.row.classList.remove("drop-target");
    const moving = selectedItems.value.map((i) => ({ path: i.path, name: i.name }));
    void transferItems(moving, `${target.item.path}/`, "move", { stay: true });
  };

  return {
    onClick,
    onKeyDown,
    onFocus,
    onPointerDown,
    onPointerUp: cancelPress,
    onPointerCancel: cancelPress,
    onPointerMove: cancelPress,
    onDragStart,
    onDragOver,
    onDragLeave,
    onDrop,
    onContextMenu,
  };
}
