import { useEffect, useRef, useState } from "react";
import { Icon } from "../../components/Icon.tsx";
import { ArrowDown, ArrowUp, Folder } from "../../components/icons.ts";
import type { PageView } from "../../client/hooks.ts";
import { saveSorting } from "../../client/file_ops.ts";
import { contextMenuAt, focusIndex, multiple, returnFocus } from "../../client/state.ts";
import type { Resource } from "../../lib/types.ts";
import { Row } from "./Row.tsx";
import type { ContextMenu as Menu } from "./ContextMenu.tsx";
import { useListingEvents } from "./use_listing_events.ts";
import { useWindow } from "./use_window.ts";

function SortButton(props: { by: string; label: string; sorting: Resource["sorting"]; class: string }) {
  const active = props.sorting?.by === props.by;
  // Name sorting is inverted on the wire: asc=false means A→Z (docs/api.md#resources).
  const ascending = active && (props.by === "name" ? !props.sorting!.asc : props.sorting!.asc);
  return (
    <button
      type="button"
      class={`sort ${props.class}${active ? " active" : ""}`}
      onClick={() => void saveSorting(props.by)}
      // aria-sort belongs to column headers only; the button says its state as pressed plus a direction.
      aria-pressed={active}
      data-direction={active ? (ascending ? "ascending" : "descending") : undefined}
      data-sort={props.by}
    >
      <span>{props.label}</span>
      {active && <Icon node={ascending ? ArrowUp : ArrowDown} size={16} />}
    </button>
  );
}

let ContextMenu: typeof Menu | null = null;

/** The context menu, loaded when it first opens: the page's first load needs none of its code. */
function LazyContextMenu(props: { page: PageView }) {
  const [, setLoaded] = useState(false);
  if (ContextMenu) return <ContextMenu page={props.page} />;
  if (contextMenuAt.value) {
    void import("./ContextMenu.tsx").then((m) => {
      ContextMenu = m.ContextMenu;
      setLoaded(true);
    });
  }
  return null;
}

/** Props of Listing. */
export interface ListingProps {
  dir: Resource;
  page: PageView;
}

/** The folder listing: sort header, then a windowed listbox of rows or cards. */
export function Listing(props: ListingProps) {
  const { page, dir } = props;
  const { t, locale, user, config } = page;
  const items = dir.items ?? [];
  const mode = user?.viewMode === "mosaic" || user?.viewMode === "mosaic gallery" ? user.viewMode : "list";
  const listRef = useRef<HTMLDivElement>(null);
  // The listbox is as tall as every item together (the scrollbar shows the whole folder, also while only its
  // first screen has arrived); only the rows in and around the viewport exist in the DOM.
  const count = Math.max(items.length, (dir.numDirs ?? 0) + (dir.numFiles ?? 0));
  const win = useWindow(listRef, count, mode);
  const events = useListingEvents({ items, win, listRef, user });
  // Rendered anew once mounted, with what depends on the browser (see RowProps.dateTitles).
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);

  // Back from a preview: focus the item it showed, scrolled into view.
  useEffect(() => {
    const path = returnFocus.value;
    if (!path) return;
    const index = items.findIndex((i) => i.path === path);
    if (index < 0) return;
    returnFocus.value = null;
    focusIndex.value = index;
    const el = listRef.current;
    if (!el) return;
    el.focus({ preventScroll: true });
    const top = el.getBoundingClientRect().top + scrollY + Math.floor(index / win.cols) * win.rowH;
    if (top < scrollY || top + win.rowH > scrollY + innerHeight) {
      scrollTo(0, Math.max(0, top - innerHeight / 3));
    }
  }, [dir.path, items]);

  const rows = Math.ceil(count / win.cols);
  const startRow = Math.floor(win.start / win.cols);
  const focus = focusIndex.value;
  const multi = multiple.value;
  const modeClass = mode === "list" ? "list" : mode === "mosaic" ? "mosaic" : "gallery";
  return (
    <div class={`listing-wrap ${modeClass}${multi ? " multiple" : ""}`}>
      <div class="list-header" role="group" aria-label={t("files.sortBy")}>
        <SortButton by="name" label={t("files.name")} sorting={dir.sorting} class="name" />
        <SortButton by="size" label={t("files.size")} sorting={dir.sorting} class="size" />
        <SortButton by="modified" label={t("files.lastModified")} sorting={dir.sorting} class="modified" />
      </div>
      {items.length === 0
        ? (
          <div class="empty" data-testid="empty">
            <Icon node={Folder} size={48} />
            <p>{t("files.lonely")}</p>
          </div>
        )
        : (
          <div
            ref={listRef}
            role="listbox"
            tabIndex={0}
            aria-multiselectable="true"
            aria-label={t("files.listing", { name: dir.name || t("sidebar.myFiles") })}
            aria-activedescendant={focus >= 0 && focus >= win.start && focus < win.end
              ? `item-${focus}`
              : undefined}
            class={`listing${multi ? " multiple" : ""}`}
            data-testid="listing"
            data-count={items.length}
            style={{
              height: `${Math.max(0, rows * win.rowH - win.gap)}px`,
              "--row-h": `${win.rowH - win.gap}px`,
            }}
            {...events}
          >
            <div
              class="window"
              style={{
                transform: `translateY(${startRow * win.rowH}px)`,
                // The columns geometryOf() counts, by CSS alone: right before the width is measured too (the
                // server's render, before any script runs).
                gridTemplateColumns: mode === "list"
                  ? "minmax(0,1fr)"
                  : `repeat(auto-fill,minmax(min(${
                    mode === "mosaic" ? "280px,100%" : "200px,50% - 4px"
                  }),1fr))`,
                gap: `${win.gap}px`,
              }}
            >
              {items.slice(win.start, win.end).map((item, i) => (
                <Row
                  key={item.path}
                  item={item}
                  index={win.start + i}
                  total={count}
                  mode={mode}
                  locale={locale}
                  absoluteDates={!!user?.dateFormat}
                  thumbs={config.EnableThumbs}
                  draggable={!!user?.perm.rename}
                  invalidLinkText={t("files.invalidLink")}
                  dateTitles={mounted}
                />
              ))}
            </div>
          </div>
        )}
      <LazyContextMenu page={page} />
    </div>
  );
}
