// This module is browser-compatible.
/** Windowed rendering of the listing: only the rows in (and just around) the viewport exist in the DOM. */
import { useLayoutEffect, useState } from "react";
import type { RefObject } from "preact";

/** Gap between mosaic cards, px. */
const GAP = 8;
const OVERSCAN_ROWS = 6;
const MOBILE_QUERY = "(max-width: 736px)";
/** Items the server sends with a folder's page: enough for the first screen of any view mode. */
export const FIRST_SCREEN = 60;
/**
 * The biggest folder whose listing the page preloads (`<link rel="preload">`, read on the main thread); a bigger
 * one is fetched by the listing worker once the page's script runs (client/api/listing.ts), since reading its
 * body (18 MB for 100k items) costs the main thread a long task.
 */
export const PRELOAD_MAX_ITEMS = 10_000;
/** Rows of the list view rendered before the listing is measured (a tall screen's worth). */
const FIRST_LIST_ROWS = 40;
/** A window resize is acted on this long after the last resize event, ms. */
export const RESIZE_DEBOUNCE_MS = 100;

/** Grid geometry for a view mode at a width. */
export interface Geometry {
  cols: number;
  /** Height of one row including the gap below it. */
  rowH: number;
  /** Gap between rows and columns. */
  gap: number;
}

/** Columns and row height of a view mode (list rows 40 px, 48 px on touch-sized screens). */
export function geometryOf(mode: string, width: number, mobile: boolean): Geometry {
  if (mode === "mosaic gallery") {
    const cols = Math.max(2, Math.floor((width + GAP) / (200 + GAP)));
    const colW = (width - GAP * (cols - 1)) / cols;
    return { cols, rowH: Math.round(colW * 0.75) + 44 + GAP, gap: GAP };
  }
  if (mode === "mosaic") {
    return { cols: Math.max(1, Math.floor((width + GAP) / (280 + GAP))), rowH: 64 + GAP, gap: GAP };
  }
  return { cols: 1, rowH: mobile ? 48 : 40, gap: 0 };
}

/** The visible window: item indices [start, end) plus geometry. */
export interface WindowState extends Geometry {
  start: number;
  end: number;
}

function same(a: WindowState, b: WindowState): boolean {
  return a.start === b.start && a.end === b.end && a.cols === b.cols && a.rowH === b.rowH && a.gap === b.gap;
}

/** Tracks which of `count` items are visible in the window-scrolled element `ref`. */
export function useWindow(ref: RefObject<HTMLElement | null>, count: number, mode: string): WindowState {
  const [state, setState] = useState<WindowState>(() => ({
    start: 0,
    end: Math.min(count, mode === "list" ? FIRST_LIST_ROWS : FIRST_SCREEN),
    ...geometryOf(mode, 800, false),
  }));
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const mq = matchMedia(MOBILE_QUERY);
    let frame = 0;
    const measure = () => {
      frame = 0;
      const rect = el.getBoundingClientRect();
      const geo = geometryOf(mode, rect.width || el.clientWidth, mq.matches);
      const first = Math.max(0, Math.floor(-rect.top / geo.rowH) - OVERSCAN_ROWS);
      const last = Math.ceil((innerHeight - rect.top) / geo.rowH) + OVERSCAN_ROWS;
      const next = {
        ...geo,
        start: Math.min(count, first * geo.cols),
        end: Math.min(count, last * geo.cols),
      };
      setState((prev) => same(prev, next) ? prev : next);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    // A window resize recomputes the layout once it settles (~100 ms), not on every intermediate size.
    let resizeTimer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(schedule, RESIZE_DEBOUNCE_MS);
    };
    addEventListener("scroll", schedule, { passive: true });
    addEventListener("resize", onResize);
    const ro = new ResizeObserver(onResize);
    ro.observe(el);
    measure();
    return () => {
      removeEventListener("scroll", schedule);
      removeEventListener("resize", onResize);
      clearTimeout(resizeTimer);
      ro.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [count, mode]);
  return state;
}
