import { useEffect, useRef, useState } from "react";
import {
  clampHeight,
  KEY_STEP,
  loadHeight,
  maxHeight,
  MIN_HEIGHT,
  saveHeight,
} from "../../client/shell/height.ts";

/** The event handlers and ARIA values of the divider (spread onto its element). */
export interface DividerProps {
  onPointerDown(e: PointerEvent): void;
  onPointerMove(e: PointerEvent): void;
  onPointerUp(e: PointerEvent): void;
  onPointerCancel(): void;
  onKeyDown(e: KeyboardEvent): void;
  "aria-valuenow": number;
  "aria-valuemin": number;
  "aria-valuemax": number;
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * The shell panel's height and its divider: dragged with a pointer (one update per frame), moved with the arrow
 * keys, Home and End; remembered in localStorage; kept inside the viewport when the window shrinks. While the panel
 * is open its height is published as `--shell-h` on <html> so the page, toasts and upload panel make room.
 */
export function usePanelHeight(open: boolean): {
  height: number;
  divider: DividerProps;
} {
  const [height, setHeight] = useState(() => loadHeight(storage(), innerHeight));
  const drag = useRef<{ y: number; h: number; id: number } | null>(null);
  const frame = useRef(0);
  const set = (h: number, save: boolean) => {
    const next = clampHeight(h, innerHeight);
    setHeight(next);
    if (save) saveHeight(storage(), next);
  };

  useEffect(() => {
    const onResize = () => setHeight((h) => clampHeight(h, innerHeight));
    addEventListener("resize", onResize);
    return () => removeEventListener("resize", onResize);
  }, []);
  useEffect(() => {
    const root = document.documentElement.style;
    if (open) root.setProperty("--shell-h", `${height}px`);
    else root.removeProperty("--shell-h");
  }, [open, height]);
  useEffect(() => () => document.documentElement.style.removeProperty("--shell-h"), []);

  const divider: DividerProps = {
    onPointerDown(e) {
      if (e.button !== 0) return;
      e.preventDefault();
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
      drag.current = { y: e.clientY, h: height, id: e.pointerId };
    },
    onPointerMove(e) {
      const d = drag.current;
      if (!d || d.id !== e.pointerId) return;
      const y = e.clientY;
      cancelAnimationFrame(frame.current);
      frame.current = requestAnimationFrame(() => set(d.h + d.y - y, false));
    },
    onPointerUp(e) {
      const d = drag.current;
      if (!d || d.id !== e.pointerId) return;
      drag.current = null;
      cancelAnimationFrame(frame.current);
      set(d.h + d.y - e.clientY, true);
    },
    onPointerCancel() {
      drag.current = null;
    },
    onKeyDown(e) {
      const step = e.key === "ArrowUp" ? KEY_STEP : e.key === "ArrowDown" ? -KEY_STEP : 0;
      if (step) set(height + step, true);
      else if (e.key === "Home") set(maxHeight(innerHeight), true);
      else if (e.key === "End") set(MIN_HEIGHT, true);
      else return;
      e.preventDefault();
    },
    "aria-valuenow": height,
    "aria-valuemin": MIN_HEIGHT,
    "aria-valuemax": maxHeight(innerHeight),
  };
  return { height, divider };
}
