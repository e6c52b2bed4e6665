import { useLayoutEffect, useRef } from "react";
import { Icon } from "../../components/Icon.tsx";
import type { ActionContext, HeaderAction } from "../../client/actions.ts";
import { headerActions } from "../../client/actions.ts";
import type { PageView } from "../../client/hooks.ts";
import { contextMenuAt, currentPath, listing, selectedItems, user } from "../../client/state.ts";

/** Actions offered by the context menu: those of the selection, plus download and info. */
const EXTRA = new Set(["download", "info"]);
const MARGIN = 8;

function offered(a: HeaderAction, ctx: ActionContext): boolean {
  return (a.group === "selection" || EXTRA.has(a.id)) && a.visible(ctx);
}

/** Closes the menu; `refocus` gives the focus back to the listbox (keyboard use). */
export function closeContextMenu(refocus = false): void {
  if (!contextMenuAt.value) return;
  contextMenuAt.value = null;
  if (refocus) document.querySelector<HTMLElement>('[data-testid="listing"]')?.focus({ preventScroll: true });
}

/**
 * The listing's context menu (right click, long press on a selected item, Shift+F10 or the ContextMenu key): the
 * header's actions for the selection. Arrows move, Enter runs, Esc closes; a click outside or a scroll closes it.
 */
export function ContextMenu(props: { page: PageView }) {
  const { t, config } = props.page;
  const ref = useRef<HTMLDivElement>(null);
  const at = contextMenuAt.value;
  const u = user.value;
  const ctx: ActionContext | null = u
    ? { user: u, config, selected: selectedItems.value, listing: listing.value, path: currentPath.value }
    : null;
  const actions = at && ctx ? headerActions.value.filter((a) => offered(a, ctx)) : [];

  // Kept inside the viewport: flipped to the other side of the pointer when it would overflow.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!at || !el) return;
    const { width, height } = el.getBoundingClientRect();
    let x = at.x, y = at.y;
    if (x + width + MARGIN > innerWidth) {
      x = Math.max(MARGIN, Math.min(at.x - width, innerWidth - width - MARGIN));
    }
    if (y + height + MARGIN > innerHeight) {
      y = Math.max(MARGIN, Math.min(at.y - height, innerHeight - height - MARGIN));
    }
    el.style.left = `${x}px`;
    el.style.top = `${y}px`;
    el.querySelector<HTMLElement>("[role=menuitem]")?.focus({ preventScroll: true });
  }, [at?.x, at?.y, actions.length]);

  // Layout effect: the listeners are in place as soon as the menu is on screen (a click right after it opened
  // must close it; a plain effect may run a frame later).
  useLayoutEffect(() => {
    if (!at) return;
    const onDown = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) closeContextMenu();
    };
    const onScroll = () => closeContextMenu();
    addEventListener("pointerdown", onDown, true);
    addEventListener("scroll", onScroll, { passive: true });
    addEventListener("resize", onScroll);
    return () => {
      removeEventListener("pointerdown", onDown, true);
      removeEventListener("scroll", onScroll);
      removeEventListener("resize", onScroll);
    };
  }, [at]);

  if (!at || !ctx || actions.length === 0) return null;
  const onKeyDown = (e: KeyboardEvent) => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
    const i = items.indexOf(document.activeElement as HTMLElement);
    let next: number | null = null;
    if (e.key === "ArrowDown") next = i + 1;
    else if (e.key === "ArrowUp") next = i - 1;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = items.length - 1;
    else if (e.key === "Escape" || e.key === "Tab") {
      e.preventDefault();
      e.stopPropagation();
      closeContextMenu(true);
      return;
    }
    if (next === null) return;
    e.preventDefault();
    e.stopPropagation();
    items[(next + items.length) % items.length]?.focus();
  };
  return (
    <div
      ref={ref}
      class="menu context-menu"
      role="menu"
      aria-label={t("header.actions")}
      data-testid="context-menu"
      style={{ left: `${at.x}px`, top: `${at.y}px` }}
      onKeyDown={onKeyDown}
    >
      {actions.map((a) => {
        const label = t(a.label?.(ctx) ?? a.labelKey);
        return (
          <button
            key={a.id}
            type="button"
            role="menuitem"
            class="menu-item"
            data-action={a.id}
            tabIndex={-1}
            onClick={() => {
              closeContextMenu(true);
              a.run(ctx);
            }}
          >
            <Icon node={a.iconOf?.(ctx) ?? a.icon} />
            <span>{label}</span>
          </button>
        );
      })}
    </div>
  );
}
